import { Alert, Table, Text } from '@mantine/core';
import { formatTime } from '../../ui/format-time.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Page } from '../../ui/page.tsx';
import { ApplicationActions } from './application-actions.tsx';
import { CreateApplication } from './create-application.tsx';
import { RoleCheckboxes } from './role-checkboxes.tsx';
import { useApplications } from './use-applications.ts';
import { useRoleChoices } from '../roles/use-roles.ts';
import { DataTable } from '../../ui/data-table.tsx';
import { LoadMore } from '../../ui/load-more.tsx';
import { QueryBody } from '../../ui/query-body.tsx';

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
      <QueryBody
        pending={applications.isPending}
        loadingLabel="Loading applications"
        isEmpty={rows.length === 0}
        empty={<Text>No applications yet. Create one to get a key.</Text>}
      >
        <DataTable
          minWidth={720}
          striped
          verticalSpacing="sm"
          columns={['Name', 'Roles', 'Expires', 'Last used', { hidden: 'Actions' }]}
        >
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
        </DataTable>
      </QueryBody>
      <LoadMore query={applications} />
    </Page>
  );
}
