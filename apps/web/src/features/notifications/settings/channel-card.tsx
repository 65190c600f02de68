import { Alert, Badge, Button, Card, Group, Stack, Switch, Text, Title } from '@mantine/core';
import type { ApiClient } from '../../../api/client.ts';
import { ErrorAlert } from '../../../ui/error-alert.tsx';
import { formatTime } from '../../../ui/format-time.ts';
import { ConfigForm } from '../config-form.tsx';
import { MarkdownView } from '../markdown/markdown-view.tsx';
import { useUpdateMyChannel } from './use-channels.ts';

type Channel = Awaited<ReturnType<ApiClient['notification']['getMyChannels']>>['channels'][number];

/** The server's OAuth start for this channel: a navigation, since the provider's page follows. */
function OAuthLink({ channel }: { channel: Channel }) {
  const link = channel.link;
  if (!link) return null;
  const label = link.needsRelink ? 'Reconnect' : link.linked ? 'Link again' : 'Link account';
  return (
    <Stack gap="xs">
      {link.needsRelink && (
        <Alert color="orange" title="Link expired" role="alert">
          {channel.displayName} refused to renew access: nothing is delivered until you reconnect.
        </Alert>
      )}
      <Group gap="sm">
        <Badge color={link.linked && !link.needsRelink ? 'teal.9' : 'gray.7'} variant="filled">
          {link.linked ? `Linked since ${formatTime(link.linkedAt)}` : 'Not linked'}
        </Badge>
        <Button component="a" href={link.linkUrl} variant={link.needsRelink ? 'filled' : 'default'}>
          {label}
        </Button>
      </Group>
    </Stack>
  );
}

/** One channel the person may use: their switch, their settings form, the account link. */
export function ChannelCard({ channel }: { channel: Channel }) {
  const update = useUpdateMyChannel();
  const toggle = useUpdateMyChannel();
  return (
    <Card withBorder padding="lg" component="section" aria-label={channel.displayName}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4">
            {channel.displayName}
          </Title>
          <Switch
            label="Receive notifications"
            checked={channel.enabled}
            disabled={toggle.isPending}
            aria-label={`Receive notifications by ${channel.displayName}`}
            onChange={(event) =>
              toggle.mutate({
                strategyId: channel.strategyId,
                enabled: event.currentTarget.checked,
              })
            }
          />
        </Group>
        {channel.description && <Text c="dimmed">{channel.description}</Text>}
        <ErrorAlert error={toggle.error} />
        {channel.problems.map((problem) => (
          <Alert key={problem.layer} color="orange" title="Your settings need attention">
            {problem.message}
          </Alert>
        ))}
        {channel.userInstructions && <MarkdownView source={channel.userInstructions} />}
        {channel.contactResolution === 'oauth-link' && <OAuthLink channel={channel} />}
        {channel.userConfigSchema && (
          <ConfigForm
            key={JSON.stringify(channel.config)}
            schema={channel.userConfigSchema}
            stored={channel.config}
            secrets={channel.configSecrets}
            issuePrefix="config"
            pending={update.isPending}
            error={update.error}
            onSave={(config) => update.mutate({ strategyId: channel.strategyId, config })}
          />
        )}
      </Stack>
    </Card>
  );
}
