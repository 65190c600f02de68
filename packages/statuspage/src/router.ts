import type { RequestContext } from '@checkline/core';
import {
  assertAttachedReach,
  assertNamedResources,
  implementPlugin,
  notFound,
  pageScope,
  pluginClient,
} from '@checkline/core';
import { assertSystemsExist } from '@checkline/catalog';
import { catalogContract, systemResource } from '@checkline/catalog/contract';
import type { ResourceAccessLevel } from '@checkline/core/contract';
import { statuspageContract } from './contract.ts';
import type { DomainMap } from './custom-domains.ts';
import type { PageCache } from './page-cache.ts';
import { listedGroupIds, listedSystemIds } from './page-items.ts';
import type { PageSection } from './schemas.ts';
import * as pages from './service.ts';
import { deleteSubscriber, listSubscribers } from './subscribers/service.ts';

const os = implementPlugin(statuspageContract);

/** The page, once the caller may see it (read) or change it (manage): team access follows its systems. */
async function reachPage(context: RequestContext, id: string, level: ResourceAccessLevel) {
  const page = await pages.getPage(context.db, id);
  await assertAttachedReach(context, systemResource, page.systemIds, level, () =>
    notFound('Status page', id),
  );
  return page;
}

/** The member systems of each listed group; a missing group is NOT_FOUND. */
async function groupSystems(context: RequestContext, sections: readonly PageSection[]) {
  const catalog = pluginClient(context, catalogContract);
  const members: string[] = [];
  for (const id of listedGroupIds(sections)) {
    const group = await catalog.getGroup({ id }).catch(() => {
      throw notFound('Group', id);
    });
    members.push(...group.systemIds);
  }
  return members;
}

/**
 * The one team-access rule for what sections name: every listed system exists and the caller
 * reaches it (manage); listed groups exist. With `withGroupMembers` (publishing), every member
 * of a listed group must be within reach too.
 */
async function assertSectionsReachable(
  context: RequestContext,
  sections: readonly PageSection[],
  withGroupMembers: boolean,
) {
  const systemIds = listedSystemIds(sections);
  await assertNamedResources(context, systemResource, systemIds, 'manage');
  await assertSystemsExist(context, systemIds);
  const members = await groupSystems(context, sections);
  if (withGroupMembers) await assertNamedResources(context, systemResource, members, 'manage');
}

export function createStatuspageRouter(cache: PageCache, domains?: DomainMap) {
  /** Public answers (and which host serves which page) change with the page: drop them once committed. */
  const refresh = (context: RequestContext, ...slugs: string[]) =>
    context.afterCommit(() => {
      cache.invalidate(slugs);
      domains?.invalidate();
    });

  return os.router({
    getPages: os.getPages.handler(({ context, input }) =>
      pages.listPages(context.db, input, pageScope(context)),
    ),
    getPage: os.getPage.handler(({ context, input }) => reachPage(context, input.id, 'read')),
    createPage: os.createPage.handler(async ({ context, input }) => {
      await assertSectionsReachable(context, input.sections ?? [], false);
      return pages.createPage(context.db, input);
    }),
    updatePage: os.updatePage.handler(async ({ context, input }) => {
      const before = await reachPage(context, input.id, 'manage');
      if (input.sections) await assertSectionsReachable(context, input.sections, before.published);
      const page = await pages.updatePage(context.db, input);
      refresh(context, before.slug, page.slug);
      return page;
    }),
    deletePage: os.deletePage.handler(async ({ context, input }) => {
      const page = await reachPage(context, input.id, 'manage');
      const deleted = await pages.deletePage(context.db, input.id);
      refresh(context, page.slug);
      return deleted;
    }),
    publishPage: os.publishPage.handler(async ({ context, input }) => {
      const page = await reachPage(context, input.id, 'manage');
      await assertSectionsReachable(context, page.sections, true);
      const published = await pages.setPublished(context.db, input.id, true);
      refresh(context, page.slug);
      return published;
    }),
    unpublishPage: os.unpublishPage.handler(async ({ context, input }) => {
      const page = await reachPage(context, input.id, 'manage');
      const unpublished = await pages.setPublished(context.db, input.id, false);
      refresh(context, page.slug);
      return unpublished;
    }),
    getSubscribers: os.getSubscribers.handler(async ({ context, input }) => {
      await reachPage(context, input.pageId, 'manage');
      return listSubscribers(context.db, input, pageScope(context));
    }),
    deleteSubscriber: os.deleteSubscriber.handler(async ({ context, input }) => {
      await reachPage(context, input.pageId, 'manage');
      return deleteSubscriber(context.db, input.pageId, input.id);
    }),
    getPublicPage: os.getPublicPage.handler(async ({ input }) => {
      const entry = await cache.read(input.slug);
      if (!entry) throw notFound('Status page', input.slug);
      return entry.page;
    }),
  });
}
