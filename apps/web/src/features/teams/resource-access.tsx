import { Autocomplete, Group, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { mayCall } from '../../api/access.ts';
import { orpc } from '../../api/client.ts';
import { contracts } from '../../api/contracts.ts';
import { useMe } from '../../api/me.ts';
import { GrantsEditor } from '../../ui/resource-grants.tsx';

/** Resource types the UI knows how to list; any other `{plugin}.{kind}` can be typed with an id. */
const SYSTEM = 'catalog.system';
const knownTypes = [SYSTEM];

function ResourcePicker({
  type,
  value,
  onChange,
}: {
  type: string;
  value: string;
  onChange: (id: string) => void;
}) {
  const me = useMe();
  const listable = type === SYSTEM && mayCall(me.data, contracts.catalog.getSystems);
  const systems = useQuery({
    ...orpc.catalog.getSystems.queryOptions({ input: { limit: 1000 } }),
    enabled: listable,
  });
  if (!listable) {
    return (
      <TextInput
        label="Resource id"
        value={value}
        onChange={(event) => onChange(event.currentTarget.value.trim())}
      />
    );
  }
  return (
    <Select
      label="System"
      searchable
      data={(systems.data?.systems ?? []).map((system) => ({
        value: system.id,
        label: system.name,
      }))}
      value={value || null}
      nothingFoundMessage={systems.isPending ? 'Loading…' : 'No system by that name'}
      onChange={(id) => onChange(id ?? '')}
    />
  );
}

/** Picks a resource and edits its team grants and team-only flag. */
export function ResourceAccess({ teams }: { teams: readonly { id: string; name: string }[] }) {
  const [resourceType, setResourceType] = useState(SYSTEM);
  const [resourceId, setResourceId] = useState('');
  const typeIsValid = /^[a-z][a-z0-9-]*\.[a-z][a-z0-9_-]*$/.test(resourceType);
  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={2} size="h4">
          Resource access
        </Title>
        <Text size="sm" c="dimmed">
          Give teams access to one resource, and make it team-only.
        </Text>
        <Group align="flex-start" wrap="wrap" grow>
          <Autocomplete
            label="Resource type"
            data={knownTypes}
            value={resourceType}
            error={typeIsValid ? undefined : 'A resource type is {plugin}.{kind}'}
            onChange={(value) => {
              setResourceType(value.trim());
              setResourceId('');
            }}
          />
          <ResourcePicker type={resourceType} value={resourceId} onChange={setResourceId} />
        </Group>
        {typeIsValid && resourceId && (
          <GrantsEditor
            key={`${resourceType}/${resourceId}`}
            resourceType={resourceType}
            resourceId={resourceId}
            teams={teams}
          />
        )}
      </Stack>
    </Paper>
  );
}
