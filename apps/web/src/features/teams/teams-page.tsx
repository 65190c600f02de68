import { Button, Center, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { mayCall } from '../../api/access.ts';
import { contracts } from '../../api/contracts.ts';
import { useMe } from '../../api/me.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Page } from '../../ui/page.tsx';
import { ResourceAccess } from './resource-access.tsx';
import { TeamCard } from './team-card.tsx';
import { TeamEditor } from './team-editor.tsx';
import { useTeams } from './use-teams.ts';
import { Loading } from '../../ui/loading.tsx';

export function TeamsPage() {
  const me = useMe();
  const teams = useTeams();
  const [creating, setCreating] = useState(false);
  const mayCreate = mayCall(me.data, contracts.auth.createTeam);
  const mayGrant =
    mayCall(me.data, contracts.auth.getResourceAccess) &&
    mayCall(me.data, contracts.auth.updateResourceAccess);
  const rows = teams.data?.teams ?? [];

  return (
    <Page
      title="Teams"
      actions={mayCreate && <Button onClick={() => setCreating(true)}>New team</Button>}
    >
      <Text c="dimmed">
        Members of a team reach what the team is granted; managers may change the team.
      </Text>
      <ErrorAlert error={teams.error} />
      {teams.isPending ? (
        <Center mih={120}>
          <Loading label="Loading teams" />
        </Center>
      ) : rows.length === 0 ? (
        <Text>No teams yet.</Text>
      ) : (
        <Stack>
          {rows.map((team) => (
            <TeamCard key={team.id} team={team} />
          ))}
        </Stack>
      )}
      {mayGrant && <ResourceAccess teams={rows} />}
      {creating && <TeamEditor onClose={() => setCreating(false)} />}
    </Page>
  );
}
