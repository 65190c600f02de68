import type { CheckFact, HealthFacts } from '@checkline/notification-node';
import { escapeMarkdown } from '@checkline/notification-node';
import type { Importance } from '../message-schemas.ts';
import type { SubscriptionMessage } from './messages.ts';
import { durationOf, systemList, timeOf, titleOf } from './messages.ts';

const SHOWN_CHECKS = 10;

export function healthImportance(status: HealthFacts['current']): Importance {
  if (status === 'unhealthy') return 'critical';
  if (status === 'degraded') return 'warning';
  return 'info';
}

/** `- **API ping** (http): Expected status 2xx, got 500 (took 12 ms)`, every value escaped. */
function checkLine(check: CheckFact): string {
  const reason = check.message ? escapeMarkdown(check.message) : `${check.status}, no message`;
  const latency = check.latencyMs === null ? '' : ` (took ${Math.round(check.latencyMs)} ms)`;
  return `- **${escapeMarkdown(check.name)}** (${escapeMarkdown(check.type)}): ${reason}${latency}`;
}

/** A system's health status changed: what it is now, since when, why, and how long it was before. */
export function renderHealth(facts: HealthFacts): Omit<SubscriptionMessage, 'facts'> {
  const lines = [
    `${systemList([facts.system])} changed from ${facts.previous} to **${facts.current}** at ${timeOf(facts.changedAt)}.`,
  ];
  if (facts.previousDurationMs !== null) {
    lines.push(`It had been ${facts.previous} for ${durationOf(facts.previousDurationMs)}.`);
  }
  if (facts.failingChecks.length > 0) {
    const shown = facts.failingChecks.slice(0, SHOWN_CHECKS).map(checkLine);
    const more = facts.failingChecks.length - shown.length;
    lines.push(
      ['Failing checks:', ...shown, ...(more > 0 ? [`- and ${more} more`] : [])].join('\n'),
    );
  }
  return {
    type: facts.kind,
    title: titleOf(`Now ${facts.current}: `, facts.system.name),
    body: lines.join('\n\n'),
    importance: healthImportance(facts.current),
    action: { label: 'View system', url: `/systems/${facts.system.id}` },
  };
}
