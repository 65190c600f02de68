import { inArray } from 'drizzle-orm';
import { currentTokens } from '../oauth/refresh.ts';
import { errorMessage } from '../preferences/contact-resolution.ts';
import { unsubscribeUrl } from '../preferences/unsubscribe.ts';
import { messages, storedAction } from '../db/schema.ts';
import type { AttemptRecord, RecipientKind } from '../db/schema.ts';
import type { NotificationState } from '../state.ts';
import type { StrategySettings, UserChannelSettings } from '../strategies/settings-store.ts';
import { loadStrategySettings, loadUserChannels } from '../strategies/settings-store.ts';
import type { DeliveryResult, StrategySendContext } from '@checkline/notification-node';
import type { AttemptOutcome, ClaimedDelivery } from './claims.ts';
import { LEASE_LAPSED } from './claims.ts';
import { eligibility } from './eligibility.ts';
import { scrubSecrets, secretValuesOf } from './scrub-secrets.ts';
import type { ResolvedDeliverySettings } from './settings.ts';
import { backoffDelayMs } from './settings.ts';
import type { Recipient } from './recipients.ts';
import { fetchRecipients } from './recipients.ts';

type MessageRow = typeof messages.$inferSelect;

/** What a batch of claims needs at send time, read once for the whole batch. */
export interface SendTimeFacts {
  messages: Map<string, MessageRow>;
  /** Users and applications as auth describes them now, by kind and id. */
  recipients: Record<RecipientKind, Map<string, Recipient>>;
  settings: Map<string, StrategySettings>;
  channels: Map<string, Map<string, UserChannelSettings>>;
}

/**
 * Reads messages, users and settings as they are now (an administrator or the user may have
 * changed them since the call): a few queries per batch, one more per strategy in it.
 */
export async function loadSendTimeFacts(
  state: NotificationState,
  claims: readonly ClaimedDelivery[],
): Promise<SendTimeFacts> {
  const { db } = state;
  const messageIds = [...new Set(claims.map((claim) => claim.messageId))];
  const rows = await db.select().from(messages).where(inArray(messages.id, messageIds));
  const strategyIds = [...new Set(claims.map((claim) => claim.strategyId))];
  const channels = new Map<string, Map<string, UserChannelSettings>>();
  for (const strategyId of strategyIds) {
    const userIds = claims
      .filter((claim) => claim.strategyId === strategyId)
      .map((claim) => claim.userId);
    channels.set(strategyId, await loadUserChannels(state, db, strategyId, userIds));
  }
  const idsOf = (kind: RecipientKind) =>
    claims.filter((claim) => claim.recipientKind === kind).map((claim) => claim.userId);
  const applicationIds = idsOf('application');
  return {
    messages: new Map(rows.map((row) => [row.id, row])),
    recipients: {
      user: await fetchRecipients(state.serviceContext(), 'user', idsOf('user')),
      application:
        applicationIds.length === 0
          ? new Map()
          : await fetchRecipients(state.serviceContext(), 'application', applicationIds),
    },
    settings: await loadStrategySettings(state, db, strategyIds),
    channels,
  };
}

const timedOut = Symbol('timed out');

/** A service asking for a longer wait than this is answered after this long anyway. */
const MAX_RETRY_AFTER_MS = 60 * 60_000;

/** Paths of ours (`/incidents/1`) on the frontend's address; absolute URLs as they are. */
export function absoluteUrl(url: string, state: Pick<NotificationState, 'frontendUrl'>): string {
  return url.startsWith('/') ? `${state.frontendUrl}${url}` : url;
}

/** `promise`, or `timedOut` after `ms`; the timer never keeps the process alive. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof timedOut> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof timedOut>((resolve) => {
    timer = setTimeout(() => resolve(timedOut), ms);
    timer.unref();
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One attempt at one claimed delivery: re-checks that the user is still to be reached through
 * the strategy, resolves the contact, and calls `send` with a timeout, outside any transaction.
 * Answers the outcome to record; never throws for what the strategy does.
 */
export async function attemptDelivery(
  state: NotificationState,
  claim: ClaimedDelivery,
  facts: SendTimeFacts,
  options: ResolvedDeliverySettings & { now: () => Date; random?: () => number },
): Promise<AttemptOutcome> {
  const startedAt = options.now();
  const record = (outcome: AttemptRecord['outcome'], error?: string): AttemptRecord => ({
    at: startedAt.toISOString(),
    outcome,
    ...(error !== undefined && { error }),
    durationMs: Math.max(0, options.now().getTime() - startedAt.getTime()),
  });
  const skip = (reason: string): AttemptOutcome => ({
    status: 'skipped',
    reason,
    attempt: record('skipped', reason),
  });

  if (claim.attempts >= claim.maxAttempts) {
    // Taken over after its last attempt's worker died: no attempt is left.
    const error = `${LEASE_LAPSED}; no attempts left`;
    return { status: 'failed', error, attempt: record('failed', error), sendAttempted: false };
  }
  const strategy = state.strategies.get(claim.strategyId);
  const message = facts.messages.get(claim.messageId);
  if (!strategy) return skip(`Strategy ${claim.strategyId} is no longer registered`);
  if (!message) return skip('The notification no longer exists');
  const settings = facts.settings.get(claim.strategyId)!;
  const channel = facts.channels.get(claim.strategyId)!.get(claim.userId)!;
  const decision = await eligibility({
    strategy,
    settings,
    recipient: facts.recipients[claim.recipientKind].get(claim.userId)!,
    channel,
    transactional: claim.transactional,
    named: true,
  });
  if (!decision.send) return skip('skip' in decision ? decision.skip : 'Not to be sent');

  // oauth-link: the user's tokens, refreshed first when they expire within a minute.
  let accessToken: string | undefined;
  let tokenProblem: string | undefined;
  if (strategy.contactResolution.type === 'oauth-link') {
    const tokens = await currentTokens(state, strategy, settings.config, claim.userId, {
      now: options.now,
    }).catch((error: unknown) => ({ kind: 'unavailable' as const, error: errorMessage(error) }));
    if (tokens.kind === 'relink') return skip(tokens.reason);
    if (tokens.kind === 'unavailable') tokenProblem = tokens.error;
    // A link recorded without tokens (a strategy that needs none of the user's) sends without.
    if (tokens.kind === 'token') accessToken = tokens.link.accessToken;
  }

  const action = storedAction(message);
  const context: StrategySendContext<unknown, unknown, unknown> = {
    contact: decision.contact.contact,
    notification: {
      title: message.title,
      body: message.body,
      importance: message.importance,
      type: message.type,
      ...(message.facts && { facts: message.facts }),
      ...(action && { action: { label: action.label, url: absoluteUrl(action.url, state) } }),
    },
    delivery: {
      id: claim.id,
      userId: claim.userId,
      strategyId: claim.strategyId,
      createdAt: message.createdAt,
      transactional: claim.transactional,
    },
    strategyConfig: settings.config,
    ...(strategy.layoutConfig && { layoutConfig: settings.layoutConfig }),
    // An application has no person to click a link: it changes its settings with its key.
    ...(!claim.transactional &&
      claim.recipientKind === 'user' && {
        unsubscribeUrl: unsubscribeUrl(
          state,
          { userId: claim.userId, strategyId: claim.strategyId },
          startedAt,
        ),
      }),
    ...(strategy.userConfig && channel.config !== undefined && { userConfig: channel.config }),
    ...(strategy.contactResolution.type === 'oauth-link' && {
      externalId: decision.contact.externalId,
      accessToken,
    }),
  };

  let result: DeliveryResult;
  if (tokenProblem !== undefined) {
    result = { success: false, error: tokenProblem };
  } else {
    try {
      const answer = await within(strategy.send(context), options.sendTimeoutMs);
      result =
        answer === timedOut
          ? { success: false, error: `send timed out after ${options.sendTimeoutMs} ms` }
          : answer;
    } catch (error) {
      result = { success: false, error: errorMessage(error) };
    }
  }
  if (result.success) return { status: 'sent', attempt: record('sent') };

  // Services echo what they were sent: no secret of the settings used reaches the log.
  const secrets = [
    ...secretValuesOf(strategy.config.schema, settings.config),
    ...secretValuesOf(strategy.layoutConfig?.schema, settings.layoutConfig),
    ...secretValuesOf(strategy.userConfig?.schema, channel.config),
    ...(accessToken === undefined ? [] : [accessToken]),
  ];
  const error = scrubSecrets(result.error ?? 'send failed without saying why', secrets).slice(
    0,
    1_000,
  );
  const attempts = claim.attempts + 1;
  if (result.permanent === true || attempts >= claim.maxAttempts) {
    return { status: 'failed', error, attempt: record('failed', error) };
  }
  const delay = Math.max(
    backoffDelayMs(attempts, options, options.random),
    Math.min(result.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS),
  );
  return {
    status: 'pending',
    error,
    retryAt: new Date(options.now().getTime() + delay),
    attempt: record('retry', error),
  };
}
