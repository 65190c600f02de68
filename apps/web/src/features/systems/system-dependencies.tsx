import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, orpc } from '../../api/client.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { SystemsPicker } from '../../ui/systems-picker.tsx';

/** The systems this one depends on, as links; those who may manage checks change the list. */
export function SystemDependencies({
  systemId,
  mayManage,
}: {
  systemId: string;
  mayManage: boolean;
}) {
  const queryClient = useQueryClient();
  const [choosing, setChoosing] = useState<string[] | null>(null);
  const dependencies = useQuery(
    orpc.healthcheck.getSystemDependencies.queryOptions({ input: { systemId } }),
  );
  const dependsOn = dependencies.data?.dependsOn ?? [];
  const named = useQuery({
    ...orpc.catalog.getSystems.queryOptions({ input: { ids: dependsOn, limit: 100 } }),
    enabled: dependsOn.length > 0,
  });
  const save = useMutation({
    mutationFn: (ids: string[]) =>
      api.healthcheck.setSystemDependencies({ systemId, dependsOn: ids }),
    onSuccess: async () => {
      setChoosing(null);
      await queryClient.invalidateQueries();
    },
  });
  const shown = dependsOn.length === 0 ? [] : (named.data?.systems ?? []);

  return (
    <Stack component="section" aria-labelledby="system-dependencies" gap="xs">
      <Group justify="space-between">
        <Title order={2} size="h3" id="system-dependencies">
          Depends on
        </Title>
        {mayManage && choosing === null && (
          <Button size="xs" variant="default" onClick={() => setChoosing(dependsOn)}>
            Change dependencies
          </Button>
        )}
      </Group>
      <ErrorAlert error={dependencies.error ?? save.error} />
      {choosing === null ? (
        shown.length === 0 ? (
          <Text c="dimmed">No dependencies.</Text>
        ) : (
          <Group gap="md" data-testid="dependencies">
            {shown.map((system) => (
              <Anchor key={system.id} component={Link} to={`/systems/${system.id}`}>
                {system.name}
              </Anchor>
            ))}
          </Group>
        )
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate(choosing);
          }}
        >
          <Stack gap="xs">
            <SystemsPicker
              label="Systems it depends on"
              description="While one of them is unhealthy, this system's status changes send no notifications."
              exclude={systemId}
              value={choosing}
              onChange={setChoosing}
            />
            <Group gap="xs">
              <Button type="submit" size="xs" loading={save.isPending}>
                Save dependencies
              </Button>
              <Button size="xs" variant="default" onClick={() => setChoosing(null)}>
                Cancel
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
