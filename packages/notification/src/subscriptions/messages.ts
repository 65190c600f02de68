import type { AlertFacts, SystemFact } from '@checkline/notification-node';
import { escapeMarkdown } from '@checkline/notification-node';
import type { Importance, NotificationAction } from '../message-schemas.ts';

/** What one subscription event becomes, for the inbox and for every external channel. */
export interface SubscriptionMessage {
  type: string;
  title: string;
  /** Markdown; every monitored value in it (names, titles, result messages) is escaped. */
  body: string;
  importance: Importance;
  action: NotificationAction;
  /** What the title and body say, typed: the webhook carries them beside the text. */
  facts: AlertFacts;
}

/** A system as a message names it. */
export type SystemRef = SystemFact;

const TITLE_LIMIT = 200;
const NAMED_SYSTEMS = 10;

/** Titles are plain text; long user-written parts are cut so the title fits its 200 characters. */
export function titleOf(prefix: string, text: string): string {
  const room = TITLE_LIMIT - prefix.length;
  const cut = text.length > room ? `${text.slice(0, room - 1)}…` : text;
  return `${prefix}${cut}`;
}

/** `**A**, **B** and 3 more`, names escaped. */
export function systemList(systems: readonly SystemRef[]): string {
  const named = systems
    .slice(0, NAMED_SYSTEMS)
    .map((system) => `**${escapeMarkdown(system.name)}**`);
  const more = systems.length - named.length;
  if (more > 0) return `${named.join(', ')} and ${more} more`;
  if (named.length <= 1) return named.join('');
  return `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
}

/** `2026-11-26 00:13:40 UTC`: readable in every channel, unambiguous across time zones. */
export function timeOf(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

const UNITS: readonly (readonly [string, number])[] = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['min', 60_000],
  ['s', 1_000],
];

/** `1 h 2 min`, `3 min 5 s`, `12 s`: the largest unit and the next, rounded down. */
export function durationOf(ms: number): string {
  const first = UNITS.findIndex(([, size]) => ms >= size);
  if (first === -1) return `${Math.max(0, Math.floor(ms))} ms`;
  const [unit, size] = UNITS[first]!;
  const count = Math.floor(ms / size);
  const next = UNITS[first + 1];
  const rest = next ? Math.floor((ms - count * size) / next[1]) : 0;
  return next && rest > 0 ? `${count} ${unit} ${rest} ${next[0]}` : `${count} ${unit}`;
}
