import type { PublicIncident, PublicMaintenance, PublicPage } from './public-schemas.ts';

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);

interface FeedEntry {
  ref: string;
  title: string;
  updated: string;
  published: string;
  summary: string;
}

function incidentEntry(incident: PublicIncident): FeedEntry {
  const last = incident.updates.at(-1);
  const lines = incident.updates.map(
    (update) => `${update.at} ${update.status}${update.message ? `: ${update.message}` : ''}`,
  );
  return {
    ref: `incident-${incident.ref}`,
    title: `[${incident.status}] ${incident.title}`,
    updated: incident.resolvedAt ?? last?.at ?? incident.startedAt,
    published: incident.startedAt,
    summary: [`Severity: ${incident.severity}`, ...lines].join('\n'),
  };
}

function maintenanceEntry(window: PublicMaintenance): FeedEntry {
  return {
    ref: `maintenance-${window.ref}`,
    title: `[maintenance] ${window.title}`,
    updated: window.startAt,
    published: window.startAt,
    summary: [`From ${window.startAt} to ${window.endAt}`, window.description]
      .filter(Boolean)
      .join('\n'),
  };
}

/**
 * The page's incidents (active and resolved in the last 30 days) and maintenance as an Atom 1.0
 * feed (RFC 4287). `pageUrl` is the page's public address; entry ids are that address with the
 * entry's reference as fragment, stable for as long as the page keeps its slug.
 */
export function atomFeed(page: PublicPage, pageUrl: string, feedUrl: string): string {
  const entries = [
    ...page.activeIncidents.map(incidentEntry),
    ...page.recentIncidents.map(incidentEntry),
    ...page.maintenance.map(maintenanceEntry),
  ].sort((a, b) => Date.parse(b.updated) - Date.parse(a.updated));
  const updated = entries[0]?.updated ?? page.generatedAt;
  const link = escapeXml(pageUrl);
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `<id>${link}</id>`,
    `<title>${escapeXml(page.title)}</title>`,
    `<subtitle>${escapeXml(page.description)}</subtitle>`,
    `<updated>${updated}</updated>`,
    `<author><name>${escapeXml(page.title)}</name></author>`,
    `<link rel="alternate" type="text/html" href="${link}"/>`,
    `<link rel="self" type="application/atom+xml" href="${escapeXml(feedUrl)}"/>`,
    ...entries.map((entry) =>
      [
        '<entry>',
        `<id>${link}#${entry.ref}</id>`,
        `<title>${escapeXml(entry.title)}</title>`,
        `<updated>${entry.updated}</updated>`,
        `<published>${entry.published}</published>`,
        `<link rel="alternate" type="text/html" href="${link}#${entry.ref}"/>`,
        `<summary type="text">${escapeXml(entry.summary)}</summary>`,
        '</entry>',
      ].join(''),
    ),
    '</feed>',
    '',
  ].join('\n');
}
