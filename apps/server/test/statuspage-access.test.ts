import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationWithRoles, seedTeamWorld, type TeamWorld } from './support/team-world.ts';
import { createTestServer, type TestServer } from './support/test-server.ts';

/**
 * Issue 23: status pages have rules of their own, and a page follows the one team-access rule:
 * a team-only system, named or in a listed group, is published only by someone who reaches it.
 */
let server: TestServer;
let world: TeamWorld;
let hidden: string;
let open: string;
let group: string;

beforeAll(async () => {
  server = await createTestServer();
  world = await seedTeamWorld(server);
  hidden = await world.hiddenSystem();
  open = await world.openSystem();
  const { createGroup } = await world.asAdmin('catalog', { createGroup: { name: 'mixed' } });
  group = createGroup.id;
  for (const systemId of [hidden, open]) {
    await world.asAdmin('catalog', { addSystemToGroup: { groupId: group, systemId } });
  }
});
afterAll(() => server.close());

const groupPage = (slug: string) => ({
  slug,
  title: slug,
  sections: [{ title: 'All', items: [{ kind: 'group', groupId: group, displayName: 'All' }] }],
});

describe('status page access', () => {
  it('lets only the team publish a page whose group holds a team-only system', async () => {
    const made = await world.call('outsider', 'statuspage', { createPage: groupPage('mixed') });
    expect(made.status).toBe(200);
    const id = made.body.createPage.id as string;

    const refused = await world.call('outsider', 'statuspage', { publishPage: { id } });
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({
      code: 'NOT_FOUND',
      message: `System ${hidden} not found`,
    });
    expect((await server.request('/api/statuspage/public/mixed')).status).toBe(404);

    const published = await world.call('holder', 'statuspage', { publishPage: { id } });
    expect(published.status).toBe(200);
    expect(published.body.publishPage.published).toBe(true);
    expect((await server.request('/api/statuspage/public/mixed')).status).toBe(200);
  });

  it('refuses new sections with a team-only group member on a published page to an outsider', async () => {
    const { createPage } = await world.asAdmin('statuspage', {
      createPage: { slug: 'open-only', title: 'Open', sections: [] },
    });
    await world.asAdmin('statuspage', { publishPage: { id: createPage.id } });
    const { sections } = groupPage('x');
    const refused = await world.call('outsider', 'statuspage', {
      updatePage: { id: createPage.id, sections },
    });
    expect(refused.status).toBe(404);
    const { getPage } = await world.asAdmin('statuspage', { getPage: { id: createPage.id } });
    expect(getPage.sections).toEqual([]);
  });

  it('needs the page rules: read to see, manage to change, publish to publish', async () => {
    const { createRole } = await world.asAdmin('auth', {
      createRole: {
        name: 'page-editor',
        accessRules: ['statuspage.page.read', 'statuspage.page.manage'],
      },
    });
    const editor = await applicationWithRoles(world.asAdmin, 'page-editor', [createRole.id]);
    const { createRole: none } = await world.asAdmin('auth', {
      createRole: { name: 'catalog-only', accessRules: ['catalog.catalog.read'] },
    });
    const stranger = await applicationWithRoles(world.asAdmin, 'stranger', [none.id]);
    const keyed = async (token: string, body: unknown) => {
      const response = await server.keyed('statuspage', body, token);
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    };

    expect((await keyed(stranger.key, { getPages: {} })).status).toBe(403);
    const made = await keyed(editor.key, {
      createPage: { slug: 'editor-page', title: 'Editor', sections: [] },
    });
    expect(made.status).toBe(200);
    const id = made.body.createPage.id;
    expect((await keyed(stranger.key, { deletePage: { id } })).status).toBe(403);
    const publish = await keyed(editor.key, { publishPage: { id } });
    expect(publish.status).toBe(403);
    expect(publish.body.code).toBe('FORBIDDEN');
    expect((await keyed(editor.key, { deletePage: { id } })).status).toBe(200);
  });

  it('keeps slugs and custom domains unique, and validates what visitors will see', async () => {
    const first = await world.asAdmin('statuspage', {
      createPage: { slug: 'unique-one', title: 'One', customDomain: 'status.example.com' },
    });
    expect(first.createPage.customDomain).toBe('status.example.com');
    for (const input of [
      { slug: 'unique-one', title: 'Again' },
      { slug: 'unique-two', title: 'Two', customDomain: 'status.example.com' },
    ]) {
      const answer = await world.call('admin', 'statuspage', { createPage: input });
      expect(answer.status).toBe(409);
    }
    for (const input of [
      { slug: 'Has Spaces', title: 'x' },
      { slug: 'ok-slug', title: 'x', logoUrl: 'javascript:alert(1)' },
      { slug: 'ok-slug', title: 'x', logoUrl: 'http://plain.example.com/logo.png' },
      { slug: 'ok-slug', title: 'x', brandColor: 'red;background:url(x)' },
    ]) {
      const answer = await world.call('admin', 'statuspage', { createPage: input });
      expect({ input, status: answer.status }).toEqual({ input, status: 400 });
    }
  });
});
