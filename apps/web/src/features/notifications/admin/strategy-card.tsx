import {
  Accordion,
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import type { ApiClient } from '../../../api/client.ts';
import { orpc } from '../../../api/client.ts';
import { ErrorAlert } from '../../../ui/error-alert.tsx';
import { ConfigForm } from '../config-form.tsx';
import { MarkdownView } from '../markdown/markdown-view.tsx';
import { EmailPreview } from './email-preview.tsx';
import { useUpdateStrategy } from './use-strategies.ts';

type Strategy = Awaited<
  ReturnType<ApiClient['notification']['getStrategies']>
>['strategies'][number];

/** Sends a test through the real delivery path to the administrator, and says what happened. */
function SendTest({ strategy }: { strategy: Strategy }) {
  const test = useMutation(orpc.notification.sendTestNotification.mutationOptions());
  const delivery = test.data?.delivery;
  return (
    <Stack gap="xs">
      <Button
        variant="default"
        w="fit-content"
        loading={test.isPending}
        disabled={!strategy.enabled || !strategy.configured}
        onClick={() => test.mutate({ strategyId: strategy.strategyId })}
      >
        Send a test to me
      </Button>
      <ErrorAlert error={test.error} title="Test not sent" />
      {delivery && (
        <Alert
          color={
            delivery.status === 'failed'
              ? 'red'
              : delivery.status === 'skipped'
                ? 'orange'
                : 'green'
          }
          title={`Test ${delivery.status}`}
          role="status"
        >
          {delivery.lastError ?? delivery.skipReason ?? 'See the delivery log for its attempts.'}
        </Alert>
      )}
    </Stack>
  );
}

/** The form of one stored layer of the strategy: its settings, or an e-mail's layout (if any). */
function StoredConfigItem({
  strategy,
  layer,
}: {
  strategy: Strategy;
  layer: 'config' | 'layoutConfig';
}) {
  const update = useUpdateStrategy();
  const isLayout = layer === 'layoutConfig';
  const schema = isLayout ? strategy.schemas.layoutConfig : strategy.schemas.config;
  const stored = isLayout ? strategy.layoutConfig : strategy.config;
  if (!schema) return null;
  return (
    <Accordion.Item value={isLayout ? 'layout' : 'config'}>
      <Accordion.Control>{isLayout ? 'Layout' : 'Settings'}</Accordion.Control>
      <Accordion.Panel>
        <ConfigForm
          key={JSON.stringify(stored)}
          schema={schema}
          stored={stored}
          secrets={isLayout ? strategy.layoutSecrets : strategy.configSecrets}
          issuePrefix={layer}
          saveLabel={isLayout ? 'Save layout' : 'Save settings'}
          pending={update.isPending}
          error={update.error}
          onSave={(value) =>
            update.mutate(
              isLayout
                ? { strategyId: strategy.strategyId, layoutConfig: value }
                : { strategyId: strategy.strategyId, config: value },
            )
          }
        />
      </Accordion.Panel>
    </Accordion.Item>
  );
}

/** One strategy for its administrators: switch, setup guide, config and layout, test, preview. */
export function StrategyCard({ strategy }: { strategy: Strategy }) {
  const enable = useUpdateStrategy();
  const isEmail = strategy.schemas.layoutConfig !== null;
  return (
    <Card withBorder padding="lg" component="section" aria-label={strategy.displayName}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Group gap="xs">
            <Title order={2} size="h4">
              {strategy.displayName}
            </Title>
            <Badge color={strategy.configured ? 'teal.9' : 'gray.7'} variant="filled">
              {strategy.configured ? 'Set up' : 'Needs setup'}
            </Badge>
          </Group>
          <Switch
            label="Enabled"
            aria-label={`Enable ${strategy.displayName}`}
            checked={strategy.enabled}
            disabled={enable.isPending}
            onChange={(event) =>
              enable.mutate({
                strategyId: strategy.strategyId,
                enabled: event.currentTarget.checked,
              })
            }
          />
        </Group>
        {strategy.description && <Text c="dimmed">{strategy.description}</Text>}
        <Text size="sm">
          People need the rule <code>{strategy.useRule}</code> to receive through it.
        </Text>
        <ErrorAlert error={enable.error} />
        {strategy.problems.map((problem) => (
          <Alert
            key={problem.layer}
            color="orange"
            title={`Stored ${problem.layer} needs attention`}
          >
            {problem.message}
          </Alert>
        ))}
        <Accordion variant="separated" multiple>
          {strategy.adminInstructions && (
            <Accordion.Item value="guide">
              <Accordion.Control>Setup guide</Accordion.Control>
              <Accordion.Panel>
                <MarkdownView source={strategy.adminInstructions} />
              </Accordion.Panel>
            </Accordion.Item>
          )}
          <StoredConfigItem strategy={strategy} layer="config" />
          <StoredConfigItem strategy={strategy} layer="layoutConfig" />
        </Accordion>
        <Group gap="sm" align="flex-start">
          <SendTest strategy={strategy} />
          {isEmail && <EmailPreview strategyId={strategy.strategyId} name={strategy.displayName} />}
        </Group>
      </Stack>
    </Card>
  );
}
