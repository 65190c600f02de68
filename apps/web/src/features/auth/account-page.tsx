import { Button, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { orpc } from '../../api/client.ts';
import { fieldIssues } from '../../api/errors.ts';
import { useMe } from '../../api/me.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { Page } from '../../ui/page.tsx';

export function AccountPage() {
  const me = useMe();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const change = useMutation(
    orpc.auth.changeMyPassword.mutationOptions({
      onSuccess: () => {
        setCurrentPassword('');
        setNewPassword('');
        notifications.show({ color: 'green', message: 'Your password was changed.' });
      },
    }),
  );
  const issues = fieldIssues(change.error);

  return (
    <Page title="My account">
      <Text>
        Signed in as <strong>{me.data?.email ?? me.data?.name}</strong>
      </Text>
      {me.data?.kind === 'user' && (
        <Paper withBorder p="lg" maw={480}>
          <Title order={2} size="h4" mb="md">
            Change my password
          </Title>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              change.mutate({ currentPassword, newPassword });
            }}
          >
            <Stack>
              {Object.keys(issues).length === 0 && <ErrorAlert error={change.error} />}
              <PasswordInput
                label="Current password"
                autoComplete="current-password"
                required
                value={currentPassword}
                error={issues.currentPassword}
                onChange={(event) => setCurrentPassword(event.currentTarget.value)}
              />
              <PasswordInput
                label="New password"
                description="At least 12 characters, not a common password. Your other sessions end."
                autoComplete="new-password"
                required
                value={newPassword}
                error={issues.newPassword}
                onChange={(event) => setNewPassword(event.currentTarget.value)}
              />
              <Button type="submit" loading={change.isPending} w="fit-content">
                Change password
              </Button>
            </Stack>
          </form>
        </Paper>
      )}
    </Page>
  );
}
