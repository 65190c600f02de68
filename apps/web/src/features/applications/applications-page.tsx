import { Alert, Button, Center, Table, Text, VisuallyHidden } from '@mantine/core';
import { formatTime } from '../../ui/format-time.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Page } from '../../ui/page.tsx';
import { ApplicationActions } from './application-actions.tsx';
import { CreateApplication } from './create-application.tsx';
import { RoleCheckboxes } from './role-checkboxes.tsx';
import { useApplications } from './use-applications.ts';
import { useRoleChoices } from '../roles/use-roles.ts';
import { Loading } from '../../ui/loading.tsx';

export function ApplicationsPage() {
  const applications = useApplications();
  const { mayReadRoles, roles } = useRoleChoices();
  const rows = applications.data?.pages.flatMap((page) => page.applications) ?? [];
  // The admin role is every rule at once; giving it to a key is done on purpose elsewhere.
  const roleChoices = (roles.data?.roles ?? []).filter((role) => role.name !== 'admin');

  return (
    <Page title="Applications" actions={<CreateApplication />}>
      <Text c="dimmed">
        External programs calling the API with a key (<code>Authorization: Bearer ck_…</code>). A
        key may do what its roles allow.
      </Text>
      {!mayReadRoles && (
        <Alert color="gray">Roles can be ticked by someone who may manage roles.</Alert>
      )}
      <ErrorAlert error={applications.error ?? roles.error} />
      {applications.isPending ? (
        <Center mih={120}>
          <Loading label="Loading applications" />
        </Center>
      ) : rows.length === 0 ? (
        <Text>No applications yet. Create one to get a key.</Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Roles</Table.Th>
                <Table.Th>Expires</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((application) => (
                <Table.Tr key={application.id} data-testid={`application-${application.name}`}>
                  <Table.Td>
                    <Text fw={500}>{application.name}</Text>
                    {application.description && (
                      <Text size="sm" c="dimmed">
                        {application.description}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {mayReadRoles ? (
                      <RoleCheckboxes application={application} roles={roleChoices} />
                    ) : (
                      <Text size="sm">{application.roleIds.length} roles</Text>
                    )}
                  </Table.Td>
                  <Table.Td>{formatTime(application.expiresAt)}</Table.Td>
                  <Table.Td>{formatTime(application.lastUsedAt)}</Table.Td>
                  <Table.Td>
                    <ApplicationActions application={application} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {applications.hasNextPage && (
        <Button
          variant="default"
          w="fit-content"
          loading={applications.isFetchingNextPage}
          onClick={() => void applications.fetchNextPage()}
        >
          Load more
        </Button>
      )}
    </Page>
  );
}
