import { testPrincipal } from '@checkline/core/testing';
import { parse as parseHtml, type HTMLElement } from 'node-html-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { notificationAccess } from '../access.ts';
import { deliveries } from '../db/schema.ts';
import { color } from '@checkline/notification-node';
import { versionedSchema } from '@checkline/notification-node';
import { configureStrategy, qualified, startDeliveryFixture } from '../testing/fixture.ts';
import { recordingStrategy } from '../testing/recording-strategy.ts';

function parse(html: string): HTMLElement {
  return parseHtml(html, { blockTextElements: { script: true, style: true } });
}

const branded = recordingStrategy({
  id: 'branded',
  layoutConfig: versionedSchema({
    version: 1,
    schema: z.object({
      logoUrl: z.string().optional(),
      primaryColor: color().default('#0f766e'),
      accentColor: color().optional(),
      footerText: z.string().default('Sent by Acme'),
      signature: z.string().optional(),
    }),
  }),
});
const plain = recordingStrategy({ id: 'plain' });

const admin = testPrincipal([notificationAccess.manageStrategies]);
const notification = {
  title: 'Payments API is down',
  description: 'The **Payments API** failed.\n\n<script>alert(1)</script> `<!channel>`',
  importance: 'critical' as const,
  action: { label: 'Open the incident', url: '/incidents/7' },
  type: 'healthcheck.status_changed',
};

let fixture: Awaited<ReturnType<typeof startDeliveryFixture>>;

beforeAll(async () => {
  fixture = await startDeliveryFixture([branded.strategy, plain.strategy]);
  await configureStrategy(fixture.database.db, 'branded', {
    layoutConfig: {
      logoUrl: 'https://cdn.example/logo.png',
      primaryColor: '#7c3aed',
      accentColor: '#db2777',
      footerText: 'Acme Corp',
    },
  });
});
afterAll(() => fixture?.close());

const client = () => fixture.server.notification(admin);

describe('previewNotification', () => {
  it("answers the e-mail in the strategy's stored layout, the text and the chat markup", async () => {
    const preview = await client().previewNotification({
      strategyId: qualified('branded'),
      notification,
    });
    const frontend = fixture.server.state.frontendUrl;
    expect(preview.email.subject).toBe('Payments API is down');
    const root = parse(preview.email.html);
    expect(root.querySelector('img.logo')?.getAttribute('src')).toBe(
      'https://cdn.example/logo.png',
    );
    expect(root.querySelector('a.button')?.getAttribute('style')).toContain('#db2777');
    expect(root.querySelector('a.button')?.getAttribute('href')).toBe(`${frontend}/incidents/7`);
    expect(root.querySelector('td.content')?.getAttribute('style')).toContain('#db2777');
    expect(root.querySelector('td.header')?.getAttribute('style')).toContain('#b91c1c');
    expect(root.querySelector('td.footer')?.text).toBe('Acme Corp');
    expect(root.querySelectorAll('script')).toHaveLength(0);
    expect(preview.email.text).toBe(
      `Payments API is down\n\nThe Payments API failed.\n\n<script>alert(1)</script> <!channel>\n\nOpen the incident: ${frontend}/incidents/7`,
    );
    expect(preview.text).toBe(
      `The Payments API failed.\n\n<script>alert(1)</script> <!channel>\n\nOpen the incident: ${frontend}/incidents/7`,
    );
    expect(preview.chat).toBe(
      `The *Payments API* failed.\n\n&lt;script&gt;alert(1)&lt;/script&gt; \`&lt;!channel&gt;\`\n\n<${frontend}/incidents/7|Open the incident>`,
    );
  });

  it('uses the default layout for a strategy without layoutConfig', async () => {
    const preview = await client().previewNotification({
      strategyId: qualified('plain'),
      notification: { ...notification, importance: 'info' },
    });
    const root = parse(preview.email.html);
    expect(root.querySelector('img')).toBeNull();
    expect(root.querySelector('td.footer')).toBeNull();
    expect(root.querySelector('a.button')?.getAttribute('style')).toContain('#2563eb');
  });

  it('sends nothing and stores no delivery', async () => {
    await client().previewNotification({ strategyId: qualified('branded'), notification });
    expect(branded.sent).toHaveLength(0);
    expect(await fixture.database.db.select().from(deliveries)).toHaveLength(0);
  });

  it('is NOT_FOUND for an unknown strategy', async () => {
    await expect(
      client().previewNotification({ strategyId: 'test-channel.nope', notification }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('is FORBIDDEN without the strategy administrators rule', async () => {
    const sender = fixture.server.notification(testPrincipal([notificationAccess.send]));
    await expect(
      sender.previewNotification({ strategyId: qualified('branded'), notification }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('refuses a javascript: action before rendering anything', async () => {
    await expect(
      client().previewNotification({
        strategyId: qualified('branded'),
        notification: { ...notification, action: { label: 'x', url: 'javascript:alert(1)' } },
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });
});
