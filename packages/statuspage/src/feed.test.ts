import { describe, expect, it } from 'vitest';
import { statusBadge } from './badge.ts';
import { atomFeed } from './feed.ts';
import type { PublicPage } from './public-schemas.ts';

const hostile = '</title><script>alert("x")</script>&amp;';

const page: PublicPage = {
  slug: 'acme',
  title: hostile,
  description: hostile,
  logoUrl: null,
  brandColor: null,
  status: 'outage',
  sections: [],
  activeIncidents: [
    {
      ref: 'abcdefghijklmnop',
      title: hostile,
      severity: 'major',
      status: 'investigating',
      startedAt: '2026-01-01T10:00:00.000Z',
      resolvedAt: null,
      updates: [{ status: 'investigating', message: hostile, at: '2026-01-01T10:00:00.000Z' }],
    },
  ],
  recentIncidents: [],
  maintenance: [],
  generatedAt: '2026-01-01T11:00:00.000Z',
};

describe('feed and badge text', () => {
  it('escapes every text the page chose in the feed', () => {
    const xml = atomFeed(page, 'https://status.example.com/status/acme?a=1&b=2', 'https://x/f');
    expect(xml).not.toContain('<script>');
    // One element per title: the text could not close one early.
    expect(xml.match(/<title>[^<]*<\/title>/g)).toHaveLength(2);
    expect(xml.match(/<\/title>/g)).toHaveLength(2);
    expect(xml).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;&#38;amp;');
    expect(xml).toContain('<id>https://status.example.com/status/acme?a=1&#38;b=2</id>');
  });

  it('escapes the label of the badge', () => {
    const svg = statusBadge(hostile, 'outage');
    expect(svg).not.toContain('<script>');
    expect(svg.match(/<title>/g)).toHaveLength(1);
    expect(svg).toContain('fill="#c62828"');
  });
});
