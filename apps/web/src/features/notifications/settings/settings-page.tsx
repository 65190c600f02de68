import { Alert, Center, Stack, Text } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { ErrorAlert } from '../../../ui/error-alert.tsx';
import { Page } from '../../../ui/page.tsx';
import { ChannelCard } from './channel-card.tsx';
import { SubscriptionsList } from './subscriptions-list.tsx';
import { UnsubscribeConfirm } from './unsubscribe-confirm.tsx';
import { useMyChannels } from './use-channels.ts';
import { Loading } from '../../../ui/loading.tsx';

/** `/settings/notifications`: my channels, the OAuth return, e-mail unsubscribe links, subscriptions. */
export function NotificationSettingsPage() {
  const [params, setParams] = useSearchParams();
  const channels = useMyChannels();
  const linked = params.get('linked');
  const unsubscribe = params.get('unsubscribe');
  const clear = (name: string) =>
    setParams(
      (current) => {
        current.delete(name);
        return current;
      },
      { replace: true },
    );
  const linkedName = channels.data?.channels.find(
    (channel) => channel.strategyId === linked,
  )?.displayName;
  const list = channels.data?.channels ?? [];

  return (
    <Page title="Notification settings">
      {linked && (
        <Alert
          color="green"
          title="Account linked"
          role="status"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => clear('linked')}
        >
          {`Your account is linked: notifications can now reach you by ${linkedName ?? linked}.`}
        </Alert>
      )}
      {unsubscribe && (
        <UnsubscribeConfirm token={unsubscribe} onDone={() => clear('unsubscribe')} />
      )}
      <ErrorAlert error={channels.error} />
      {channels.isPending ? (
        <Center mih={120}>
          <Loading label="Loading channels" />
        </Center>
      ) : list.length === 0 ? (
        <Text>No channel is open to your account yet.</Text>
      ) : (
        <Stack gap="md">
          {list.map((channel) => (
            <ChannelCard key={channel.strategyId} channel={channel} />
          ))}
        </Stack>
      )}
      <SubscriptionsList />
    </Page>
  );
}
