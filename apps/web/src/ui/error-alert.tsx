import { Alert } from '@mantine/core';
import { errorMessage } from '../api/errors.ts';

/** A failure from the server, shown with its own message (as text). */
export function ErrorAlert({
  error,
  title = 'Something went wrong',
}: {
  error: unknown;
  title?: string;
}) {
  if (!error) return null;
  return (
    <Alert color="red" title={title} role="alert">
      {errorMessage(error)}
    </Alert>
  );
}
