import { Alert, Button } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { errorPageMessage } from '../../api/session-routes.ts';
import { CenteredCard } from '../../ui/centered-card.tsx';

/** Where the server sends a failed sign-in: its message, as text, and the way back. */
export function AuthErrorPage() {
  const { search } = useLocation();
  const message = errorPageMessage(search) || 'Sign-in failed';
  return (
    <CenteredCard title="Sign-in problem">
      <Alert color="red" role="alert" data-testid="auth-error-message">
        {message}
      </Alert>
      <Button component={Link} to="/sign-in" mt="md">
        Back to sign-in
      </Button>
    </CenteredCard>
  );
}
