import { describe, expect, it } from 'vitest';
import type { Page } from '../schemas.ts';
import { incidentMail } from './mail.ts';

const page: Page = {
  id: '00000000-0000-4000-8000-000000000001',
  slug: 'acme',
  title: 'Acme',
  description: '',
  logoUrl: null,
  brandColor: null,
  customDomain: null,
  sections: [],
  published: true,
  systemIds: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('subscriber mail', () => {
  it('shows text chosen by administrators as text: no link or markup of theirs survives', () => {
    const hostile = '[Reset your password](https://evil.example) <img src=x> **bold**';
    const mail = incidentMail(
      page,
      {
        incidentId: '00000000-0000-4000-8000-000000000002',
        title: hostile,
        severity: 'major',
        status: 'investigating',
        systemIds: [],
        update: { message: hostile, at: '2026-01-01T00:00:00.000Z' },
      },
      { page: 'https://status.example/status/acme', unsubscribe: 'https://api.example/u/1.x' },
    );
    expect(mail.description).not.toContain('](https://evil.example)');
    expect(mail.description).not.toMatch(/(^|[^\\])<img/);
    expect(mail.description).toContain('\\<img');
    expect(mail.description).toContain('\\[Reset your password\\]\\(https://evil\\.example\\)');
    // Our own link stays a link.
    expect(mail.description).toContain('[Unsubscribe](https://api.example/u/1.x)');
  });
});
