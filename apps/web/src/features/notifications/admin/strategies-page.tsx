import { Anchor, Center, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { ErrorAlert } from '../../../ui/error-alert.tsx';
import { Page } from '../../../ui/page.tsx';
import { deliveriesNav } from '../nav.ts';
import { StrategyCard } from './strategy-card.tsx';
import { useStrategies } from './use-strategies.ts';
import { Loading } from '../../../ui/loading.tsx';

export function StrategiesPage() {
  const strategies = useStrategies();
  const list = strategies.data?.strategies ?? [];
  return (
    <Page
      title="Notification channels"
      actions={
        <Anchor component={Link} to={deliveriesNav.to}>
          Delivery log
        </Anchor>
      }
    >
      <Text c="dimmed">
        Each channel works once it is configured and enabled here; people then switch it on for
        themselves.
      </Text>
      <ErrorAlert error={strategies.error} />
      {strategies.isPending ? (
        <Center mih={120}>
          <Loading label="Loading channels" />
        </Center>
      ) : list.length === 0 ? (
        <Text>No notification channel is installed.</Text>
      ) : (
        <Stack gap="md">
          {list.map((strategy) => (
            <StrategyCard key={strategy.strategyId} strategy={strategy} />
          ))}
        </Stack>
      )}
    </Page>
  );
}
