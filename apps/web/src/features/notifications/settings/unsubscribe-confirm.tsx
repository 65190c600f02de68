import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { orpc } from '../../../api/client.ts';
import { confirmUnsubscribe } from '../../../api/session-routes.ts';
import { ErrorAlert } from '../../../ui/error-alert.tsx';

/**
 * An e-mail's unsubscribe link lands here (`?unsubscribe=<token>`, or `invalid` when the server
 * could not verify it). Nothing changes until the person confirms: mail scanners open links.
 */
export function UnsubscribeConfirm({ token, onDone }: { token: string; onDone: () => void }) {
  const queryClient = useQueryClient();
  const confirm = useMutation({
    mutationFn: () => confirmUnsubscribe(token),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: orpc.notification.getMyChannels.key() }),
  });
  if (token === 'invalid') {
    return (
      <Alert color="red" title="This unsubscribe link does not work" role="alert">
        It is not valid or has expired. Nothing changed; you can switch channels off below.
      </Alert>
    );
  }
  if (confirm.isSuccess) {
    return (
      <Alert
        color="green"
        title="Unsubscribed"
        role="status"
        withCloseButton
        closeButtonLabel="Dismiss"
        onClose={onDone}
      >
        {confirm.data}
      </Alert>
    );
  }
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="unsubscribe-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="unsubscribe-title">
          Unsubscribe from these e-mails?
        </Title>
        <Text>
          The link you followed switches off the channel that sent it. You can switch it on again
          here at any time.
        </Text>
        <ErrorAlert error={confirm.error} title="Not unsubscribed" />
        <Group>
          <Button color="red.8" loading={confirm.isPending} onClick={() => confirm.mutate()}>
            Unsubscribe
          </Button>
          <Button variant="default" onClick={onDone}>
            Keep receiving
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
