import { Checkbox, Group, PasswordInput, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { orpc } from '../../api/client.ts';
import { fieldIssues } from '../../api/errors.ts';
import { ModalForm } from '../../ui/modal-form.tsx';
import { useRefreshUsers } from './use-users.ts';
import { useRoleChoices } from '../roles/use-roles.ts';

export interface EditedUser {
  id: string;
  email: string;
  name: string;
  roleIds: string[];
}

/** Creates a user (no `user`) or changes one: e-mail, name, a new password, the roles. */
export function UserEditor({ user, onClose }: { user?: EditedUser; onClose: () => void }) {
  const { mayReadRoles, roles } = useRoleChoices();
  const refresh = useRefreshUsers();
  const [email, setEmail] = useState(user?.email ?? '');
  const [name, setName] = useState(user?.name ?? '');
  const [password, setPassword] = useState('');
  const [roleIds, setRoleIds] = useState<Set<string>>(new Set(user?.roleIds ?? []));
  const done = {
    onSuccess: async () => {
      onClose();
      await refresh();
    },
  };
  const create = useMutation(orpc.auth.createUser.mutationOptions(done));
  const update = useMutation(orpc.auth.updateUser.mutationOptions(done));
  const save = user ? update : create;
  const issues = fieldIssues(save.error);

  const submit = () => {
    // A new user given no role gets the role `users` from the server; an edit sends the set as is.
    const roles = mayReadRoles && (user || roleIds.size > 0) ? { roleIds: [...roleIds] } : {};
    if (user) {
      update.mutate({
        id: user.id,
        email,
        name,
        ...(password && { password }),
        ...roles,
      });
    } else {
      create.mutate({ email, name, password, ...roles });
    }
  };

  return (
    <ModalForm
      title={user ? `Edit ${user.email}` : 'New user'}
      onClose={onClose}
      size="lg"
      onSubmit={submit}
      error={save.error}
      saving={save.isPending}
      submitLabel={user ? 'Save user' : 'Create user'}
      fitSubmit
    >
      <TextInput
        label="E-mail"
        type="email"
        required
        data-autofocus
        value={email}
        error={issues.email}
        onChange={(event) => setEmail(event.currentTarget.value)}
      />
      <TextInput
        label="Name"
        value={name}
        error={issues.name}
        onChange={(event) => setName(event.currentTarget.value)}
      />
      <PasswordInput
        label={user ? 'New password' : 'Password'}
        description={
          user
            ? 'Leave empty to keep the current one. A new password ends all their sessions.'
            : 'At least 12 characters, not a common password.'
        }
        required={!user}
        autoComplete="new-password"
        value={password}
        error={issues.password}
        onChange={(event) => setPassword(event.currentTarget.value)}
      />
      {mayReadRoles && (
        <Checkbox.Group
          label="Roles"
          description={user ? undefined : 'None ticked: the role users.'}
          error={issues.roleIds}
          value={[...roleIds]}
          onChange={(next) => setRoleIds(new Set(next))}
        >
          <Group gap="sm" mt="xs">
            {(roles.data?.roles ?? []).map((role) => (
              <Checkbox key={role.id} value={role.id} label={role.name} />
            ))}
          </Group>
        </Checkbox.Group>
      )}
      {!mayReadRoles && (
        <Text size="sm" c="dimmed">
          Roles are given by someone who may manage roles.
        </Text>
      )}
    </ModalForm>
  );
}
