import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { orpc } from '../../api/client.ts';
import { signUp } from '../../api/session-routes.ts';
import { CenteredCard } from '../../ui/centered-card.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';

export function SignUpPage() {
  const registration = useQuery(orpc.auth.getRegistrationStatus.queryOptions({ input: {} }));
  const [form, setForm] = useState({ name: '', email: '', password: '' });
  const create = useMutation({ mutationFn: () => signUp(form) });
  const set = (field: keyof typeof form) => (event: { currentTarget: { value: string } }) =>
    setForm((current) => ({ ...current, [field]: event.currentTarget.value }));

  if (registration.data && !registration.data.allowRegistration) {
    return (
      <CenteredCard title="Create an account">
        <Alert color="yellow">Sign-up is switched off. Ask an administrator for an account.</Alert>
        <Anchor component={Link} to="/sign-in" mt="md" display="block">
          Back to sign-in
        </Anchor>
      </CenteredCard>
    );
  }
  if (create.isSuccess) {
    return (
      <CenteredCard title="Create an account">
        <Alert color="green" title="Account requested">
          If the address was free, the account now exists. Sign in with it.
        </Alert>
        <Button component={Link} to="/sign-in" mt="md">
          Sign in
        </Button>
      </CenteredCard>
    );
  }
  return (
    <CenteredCard title="Create an account">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <Stack>
          <ErrorAlert error={create.error} title="Sign-up failed" />
          <TextInput label="Name" autoComplete="name" value={form.name} onChange={set('name')} />
          <TextInput
            label="E-mail"
            type="email"
            autoComplete="email"
            required
            value={form.email}
            onChange={set('email')}
          />
          <PasswordInput
            label="Password"
            description="At least 12 characters, not a common password."
            autoComplete="new-password"
            required
            value={form.password}
            onChange={set('password')}
          />
          <Button type="submit" loading={create.isPending}>
            Create account
          </Button>
          <Text size="sm">
            Have an account?{' '}
            <Anchor component={Link} to="/sign-in">
              Sign in
            </Anchor>
          </Text>
        </Stack>
      </form>
    </CenteredCard>
  );
}
