import { Anchor, Button, Divider, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { orpc } from '../../api/client.ts';
import { signIn } from '../../api/session-routes.ts';
import { CenteredCard } from '../../ui/centered-card.tsx';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { safeReturnPath } from './return-path.ts';

export function SignInPage() {
  const [params] = useSearchParams();
  const returnTo = safeReturnPath(params.get('returnTo'));
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const strategies = useQuery(orpc.auth.getLoginStrategies.queryOptions({ input: {} }));
  const registration = useQuery(orpc.auth.getRegistrationStatus.queryOptions({ input: {} }));
  const login = useMutation({
    mutationFn: () => signIn(username, password),
    onSuccess: async () => {
      await queryClient.resetQueries();
      await navigate(returnTo, { replace: true });
    },
  });
  const providers = (strategies.data?.strategies ?? []).filter((strategy) => strategy.signInUrl);

  return (
    <CenteredCard title="Sign in to Checkline">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          login.mutate();
        }}
      >
        <Stack>
          <ErrorAlert error={login.error} title="Sign-in failed" />
          <TextInput
            label="E-mail"
            type="email"
            autoComplete="username"
            required
            value={username}
            onChange={(event) => setUsername(event.currentTarget.value)}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
          <Button type="submit" loading={login.isPending}>
            Sign in
          </Button>
        </Stack>
      </form>
      {providers.length > 0 && (
        <Stack mt="md">
          <Divider label="or" labelPosition="center" />
          {providers.map((provider) => {
            const url = new URL(provider.signInUrl!);
            url.searchParams.set('returnTo', returnTo);
            return (
              <Button key={provider.id} component="a" href={url.toString()} variant="default">
                Sign in with {provider.displayName}
              </Button>
            );
          })}
        </Stack>
      )}
      {registration.data?.allowRegistration && (
        <Text size="sm" mt="md">
          No account yet?{' '}
          <Anchor component={Link} to="/sign-up">
            Create one
          </Anchor>
        </Text>
      )}
    </CenteredCard>
  );
}
