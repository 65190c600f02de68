import { Modal } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { orpc } from '../../api/client.ts';
import { GrantsEditor } from '../../ui/resource-grants.tsx';

/** A system's team grants and team-only mark, in a dialog. */
export function SystemAccess({
  system,
  onClose,
}: {
  system: { id: string; name: string };
  onClose: () => void;
}) {
  const teams = useQuery(orpc.auth.getTeams.queryOptions({ input: { limit: 1000 } }));
  return (
    <Modal opened onClose={onClose} title={`Access to ${system.name}`} centered size="lg">
      <GrantsEditor
        resourceType="catalog.system"
        resourceId={system.id}
        teams={teams.data?.teams ?? []}
      />
    </Modal>
  );
}
