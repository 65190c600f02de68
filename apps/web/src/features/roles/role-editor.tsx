import { Center } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { orpc } from '../../api/client.ts';
import { fieldIssues } from '../../api/errors.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { RuleCheckboxes } from './rule-checkboxes.tsx';
import { useAccessRules, useRefreshRoles } from './use-roles.ts';
import { NameDescriptionFields } from '../../ui/name-description-fields.tsx';
import { ModalForm } from '../../ui/modal-form.tsx';
import { useNameDescription } from '../../ui/use-name-description.ts';
import { Loading } from '../../ui/loading.tsx';

export interface EditedRole {
  id: string;
  name: string;
  description: string;
  builtIn: boolean;
  accessRules: string[];
}

/** Creates a role (no `role`) or changes one; built-in roles keep their name. */
export function RoleEditor({ role, onClose }: { role?: EditedRole; onClose: () => void }) {
  const rules = useAccessRules();
  const refresh = useRefreshRoles();
  const fields = useNameDescription(role ?? { name: '', description: '' });
  const [selected, setSelected] = useState<Set<string>>(new Set(role?.accessRules ?? []));
  const done = {
    onSuccess: async () => {
      onClose();
      await refresh();
    },
  };
  const create = useMutation(orpc.auth.createRole.mutationOptions(done));
  const update = useMutation(orpc.auth.updateRole.mutationOptions(done));
  const save = role ? update : create;
  const issues = fieldIssues(save.error);
  const title = role ? `Edit role ${role.name}` : 'New role';

  const submit = () => {
    const { name, description } = fields;
    const accessRules = [...selected];
    if (role) {
      update.mutate({
        id: role.id,
        ...(!role.builtIn && { name }),
        description,
        accessRules,
      });
    } else {
      create.mutate({ name, description, accessRules });
    }
  };

  return (
    <ModalForm
      title={title}
      onClose={onClose}
      size="xl"
      onSubmit={submit}
      error={save.error}
      saving={save.isPending}
      submitLabel={role ? 'Save role' : 'Create role'}
      fitSubmit
    >
      <ErrorAlert error={rules.error} />
      <NameDescriptionFields
        {...fields}
        issues={issues}
        nameProps={{
          disabled: role?.builtIn,
          description: role?.builtIn ? 'A built-in role keeps its name.' : undefined,
        }}
      />
      {rules.isPending ? (
        <Center mih={80}>
          <Loading label="Loading access rules" />
        </Center>
      ) : (
        <RuleCheckboxes
          rules={rules.data?.accessRules ?? []}
          selected={selected}
          onChange={setSelected}
        />
      )}
      {issues.accessRules && <ErrorAlert error={new Error(issues.accessRules)} />}
    </ModalForm>
  );
}
