import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { mayCall } from '../../api/access.ts';
import { orpc } from '../../api/client.ts';
import { contracts } from '../../api/contracts.ts';
import { useMe } from '../../api/me.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { HealthBadge } from '../../ui/health-status.tsx';
import { Page } from '../../ui/page.tsx';
import { SecretOnce } from '../../ui/secret-once.tsx';
import { CheckCard } from './check-card.tsx';
import { CheckForm, emptyDraft } from './check-form.tsx';
import { FollowButton } from './follow-button.tsx';
import { SystemIncidents, SystemWindows } from './related-lists.tsx';
import { SystemDependencies } from './system-dependencies.tsx';
import { UptimeFigures } from './uptime-figures.tsx';
import { Loading } from '../../ui/loading.tsx';

const REFRESH_MS = 10_000;

export function SystemPage() {
  const { id = '' } = useParams();
  const me = useMe();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const [heartbeatUrl, setHeartbeatUrl] = useState<string | null>(null);
  const system = useQuery(orpc.catalog.getSystem.queryOptions({ input: { id } }));
  const health = useQuery({
    ...orpc.healthcheck.getSystemHealthStatus.queryOptions({ input: { systemId: id } }),
    refetchInterval: REFRESH_MS,
  });
  const checks = useQuery(
    orpc.healthcheck.getHealthChecks.queryOptions({ input: { systemId: id, limit: 1000 } }),
  );
  const uptime = useQuery({
    ...orpc.healthcheck.getUptime.queryOptions({ input: { systemIds: [id] } }),
    refetchInterval: REFRESH_MS * 6,
  });
  const mayManage = mayCall(me.data, contracts.healthcheck.createHealthCheck);

  if (system.error) return <ErrorAlert error={system.error} />;
  if (!system.data) return <Loading label="Loading system" />;
  const statusOf = new Map(health.data?.checks.map((check) => [check.healthCheckId, check]));
  const uptimeOf = new Map(uptime.data?.checks.map((check) => [check.healthCheckId, check]));

  return (
    <Page
      title={system.data.name}
      actions={
        <Group gap="sm">
          <FollowButton systemId={id} systemName={system.data.name} />
          {mayManage && <Button onClick={() => setCreating(true)}>New check</Button>}
        </Group>
      }
    >
      <Group gap="sm">
        <Text>Status</Text>
        {health.data && <HealthBadge status={health.data.status} />}
      </Group>
      {system.data.description && <Text>{system.data.description}</Text>}
      {uptime.data?.systems[0] && <UptimeFigures windows={uptime.data.systems[0].windows} />}
      <Stack component="section" aria-labelledby="system-checks">
        <Title order={2} size="h3" id="system-checks">
          Checks
        </Title>
        <ErrorAlert error={checks.error} />
        {checks.data?.healthChecks.length === 0 && <Text c="dimmed">No checks yet.</Text>}
        {checks.data?.healthChecks.map((check) => (
          <CheckCard
            key={check.id}
            systemId={id}
            check={check}
            latest={statusOf.get(check.id)?.latest ?? null}
            late={statusOf.get(check.id)?.late ?? false}
            uptime={uptimeOf.get(check.id)?.windows ?? []}
            mayManage={mayManage}
          />
        ))}
      </Stack>
      <SystemDependencies systemId={id} mayManage={mayManage} />
      <SystemIncidents systemId={id} />
      <SystemWindows systemId={id} />
      {creating && (
        <CheckForm
          systemId={id}
          initial={emptyDraft}
          opened
          onClose={() => setCreating(false)}
          onSaved={(token) => {
            setCreating(false);
            if (token) {
              setHeartbeatUrl(`${window.location.origin}/api/healthcheck/heartbeat/${token}`);
            }
            void queryClient.invalidateQueries();
          }}
        />
      )}
      <SecretOnce
        title="The heartbeat URL"
        secret={heartbeatUrl}
        onClose={() => setHeartbeatUrl(null)}
      />
    </Page>
  );
}
