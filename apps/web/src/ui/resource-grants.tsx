import {
  ActionIcon,
  Button,
  Center,
  Group,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { orpc } from '../api/client.ts';
import { fieldIssues } from '../api/errors.ts';
import { ErrorAlert } from './error-alert.tsx';
import { Loading } from './loading.tsx';

type Level = 'read' | 'manage';
interface Grant {
  teamId: string;
  access: Level;
}

const levels = [
  { value: 'read', label: 'Read' },
  { value: 'manage', label: 'Manage' },
];

/** Which teams reach one resource, and whether only they do (team-only). */
export function GrantsEditor({
  resourceType,
  resourceId,
  teams,
}: {
  resourceType: string;
  resourceId: string;
  teams: readonly { id: string; name: string }[];
}) {
  const queryClient = useQueryClient();
  const ref = { resourceType, resourceId };
  const current = useQuery(orpc.auth.getResourceAccess.queryOptions({ input: ref }));
  const [teamOnly, setTeamOnly] = useState(false);
  const [grants, setGrants] = useState<Grant[]>([]);
  const [newTeam, setNewTeam] = useState<string | null>(null);
  useEffect(() => {
    if (!current.data) return;
    setTeamOnly(current.data.teamOnly);
    setGrants(current.data.grants);
  }, [current.data]);
  const save = useMutation(
    orpc.auth.updateResourceAccess.mutationOptions({
      onSuccess: (answer) =>
        queryClient.setQueryData(orpc.auth.getResourceAccess.queryKey({ input: ref }), answer),
    }),
  );
  const issues = fieldIssues(save.error);
  const teamName = new Map(teams.map((team) => [team.id, team.name]));
  const ungranted = teams.filter((team) => !grants.some((grant) => grant.teamId === team.id));

  if (current.isPending) {
    return (
      <Center mih={80}>
        <Loading label="Loading the resource's access" />
      </Center>
    );
  }
  if (current.error) return <ErrorAlert error={current.error} />;
  return (
    <Stack>
      {Object.keys(issues).length === 0 && <ErrorAlert error={save.error} />}
      <Switch
        label="Team-only"
        description="Only the teams below (and administrators) reach it; the global rule is not enough."
        checked={teamOnly}
        onChange={(event) => setTeamOnly(event.currentTarget.checked)}
      />
      {grants.length === 0 ? (
        <Text size="sm">No team has a grant.</Text>
      ) : (
        <Table verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Team</Table.Th>
              <Table.Th>Access</Table.Th>
              <Table.Th>
                <VisuallyHidden>Remove</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {grants.map((grant) => {
              const name = teamName.get(grant.teamId) ?? grant.teamId;
              return (
                <Table.Tr key={grant.teamId}>
                  <Table.Td>{name}</Table.Td>
                  <Table.Td>
                    <Select
                      aria-label={`Access of ${name}`}
                      data={levels}
                      value={grant.access}
                      allowDeselect={false}
                      onChange={(access) =>
                        setGrants(
                          grants.map((other) =>
                            other.teamId === grant.teamId
                              ? { ...other, access: (access ?? 'read') as Level }
                              : other,
                          ),
                        )
                      }
                    />
                  </Table.Td>
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Remove the grant of ${name}`}
                      onClick={() => setGrants(grants.filter((other) => other !== grant))}
                    >
                      <span aria-hidden="true">✕</span>
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      {issues.grants && (
        <Text c="red" size="sm">
          {issues.grants}
        </Text>
      )}
      <Group align="flex-end" wrap="wrap">
        <Select
          label="Grant a team"
          placeholder="Pick a team"
          data={ungranted.map((team) => ({ value: team.id, label: team.name }))}
          value={newTeam}
          onChange={setNewTeam}
        />
        <Button
          variant="default"
          disabled={!newTeam}
          onClick={() => {
            if (!newTeam) return;
            setGrants([...grants, { teamId: newTeam, access: 'read' }]);
            setNewTeam(null);
          }}
        >
          Add grant
        </Button>
      </Group>
      <Group>
        <Button loading={save.isPending} onClick={() => save.mutate({ ...ref, teamOnly, grants })}>
          Save access
        </Button>
        {save.isSuccess && !save.isPending && (
          <Text size="sm" role="status">
            Saved.
          </Text>
        )}
      </Group>
    </Stack>
  );
}
