import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { formatTime } from '../../ui/format-time.ts';
import { CheckForm, type CheckDraft } from './check-form.tsx';
import { DailyUptimeBars } from './daily-uptime-bars.tsx';
import { ResponseTimeChart } from './response-time-chart.tsx';
import { UptimeFigures, type UptimeFigure } from './uptime-figures.tsx';
import { LightBadge } from '../../ui/light-badge.tsx';

export interface CheckView {
  id: string;
  name: string;
  type: string;
  config: Record<string, unknown>;
  intervalSeconds: number;
  timeoutMs: number;
}

export interface LatestResult {
  status: 'pass' | 'warn' | 'fail';
  message: string;
  latencyMs: number;
  checkedAt: string;
}

const outcomeColor = { pass: 'green', warn: 'yellow', fail: 'red' } as const;

/** A stored config as a starting draft: header values come back redacted, so they are left out. */
function draftOf(check: CheckView): CheckDraft {
  const { headers: _headers, ...config } = check.config;
  return { ...check, config };
}

/** One check: its last result and message, uptime, response times, and what can be done to it. */
export function CheckCard({
  systemId,
  check,
  latest,
  late,
  uptime,
  mayManage,
}: {
  systemId: string;
  check: CheckView;
  latest: LatestResult | null;
  late: boolean;
  uptime: readonly UptimeFigure[];
  mayManage: boolean;
}) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const run = useMutation({
    mutationFn: () => api.healthcheck.runHealthCheck({ id: check.id }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () => api.healthcheck.deleteHealthCheck({ id: check.id }),
    onSuccess: refresh,
  });

  return (
    <Card withBorder component="section" aria-label={`Check ${check.name}`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Group gap="xs">
            <Title order={3} size="h4">
              {check.name}
            </Title>
            <Badge variant="default">{check.type}</Badge>
            {late && <LightBadge color="orange">late</LightBadge>}
          </Group>
          {mayManage && (
            <Group gap="xs">
              <Button
                size="xs"
                variant="light"
                loading={run.isPending}
                onClick={() => run.mutate()}
              >
                Run now
              </Button>
              <Button size="xs" variant="default" onClick={() => setEditing(true)}>
                Edit
              </Button>
              <Button size="xs" color="red" variant="light" onClick={() => setDeleting(true)}>
                Delete
              </Button>
            </Group>
          )}
        </Group>
        <ErrorAlert error={run.error ?? remove.error} />
        {latest ? (
          <Group gap="xs" wrap="wrap" data-testid="latest-result">
            <LightBadge color={outcomeColor[latest.status]}>{latest.status}</LightBadge>
            <Text size="sm">{latest.message}</Text>
            <Text size="sm" c="dimmed">
              {latest.latencyMs} ms · {formatTime(latest.checkedAt)}
            </Text>
          </Group>
        ) : (
          <Text c="dimmed" size="sm">
            Not run yet.
          </Text>
        )}
        {uptime.length > 0 && <UptimeFigures windows={uptime} />}
        <DailyUptimeBars healthCheckId={check.id} name={check.name} />
        <ResponseTimeChart healthCheckId={check.id} name={check.name} />
      </Stack>
      {editing && (
        <CheckForm
          systemId={systemId}
          initial={draftOf(check)}
          opened
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            void refresh();
          }}
        />
      )}
      <ConfirmDialog
        opened={deleting}
        title="Delete check"
        confirmLabel="Delete"
        loading={remove.isPending}
        onClose={() => setDeleting(false)}
        onConfirm={() => remove.mutate(undefined, { onSuccess: () => setDeleting(false) })}
      >
        Delete the check “{check.name}” and all its results?
      </ConfirmDialog>
    </Card>
  );
}
