import { Button, Group, Paper, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/errors.ts';
import { emailIssue, subscribeToPage, waitText, type SubscribeOutcome } from './subscribe.ts';

/** The sentence for an outcome the status region announces (field problems go to the field). */
function announcement(outcome: SubscribeOutcome | undefined): string {
  if (!outcome) return '';
  if (outcome.kind === 'accepted') {
    // The same words for every address: the answer tells nobody whether one was subscribed.
    return 'Check your inbox to confirm. If the address can receive mail, a confirmation link is on its way; nothing else is sent before it is followed.';
  }
  if (outcome.kind === 'limited') {
    return `Too many subscription requests. Please try again in ${waitText(outcome.retryAfterSeconds)}.`;
  }
  if (outcome.kind === 'not-found') return 'This status page no longer takes subscriptions.';
  return '';
}

/**
 * "Get e-mail updates": an address, checked here with the route's schema, posted to the page's
 * anonymous subscribe route without a cookie. Double opt-in: the mail's link confirms.
 */
export function SubscribeForm({ slug }: { slug: string }) {
  const [email, setEmail] = useState('');
  const [localIssue, setLocalIssue] = useState<string>();
  const subscribing = useMutation({
    mutationFn: (address: string) => subscribeToPage(slug, address),
  });
  const outcome = subscribing.data;
  const fieldError = localIssue ?? (outcome?.kind === 'invalid' ? outcome.message : undefined);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="subscribe-heading">
      <Title order={2} size="h4" id="subscribe-heading" mb="xs">
        Get e-mail updates
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Incidents and maintenance of this page, by e-mail. Every message has a link to unsubscribe.
      </Text>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const issue = emailIssue(email);
          setLocalIssue(issue);
          if (issue) {
            subscribing.reset();
            return;
          }
          subscribing.mutate(email);
        }}
      >
        <Group align="flex-start" gap="sm">
          <TextInput
            style={{ flex: '1 1 14rem' }}
            label="E-mail address"
            type="email"
            autoComplete="email"
            required
            value={email}
            error={fieldError}
            onChange={(event) => {
              setEmail(event.currentTarget.value);
              setLocalIssue(undefined);
            }}
          />
          <Button type="submit" mt={{ base: 0, xs: 25 }} loading={subscribing.isPending}>
            Subscribe
          </Button>
        </Group>
      </form>
      <Text role="status" size="sm" mt="sm" data-testid="subscribe-status">
        {subscribing.error ? errorMessage(subscribing.error) : announcement(outcome)}
      </Text>
    </Paper>
  );
}
