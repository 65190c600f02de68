import { attachedListOfSystems } from '@checkline/catalog/contract';
import { defineContract, mutation, query, raises } from '@checkline/core/contract';
import { statuspageAccess } from './access.ts';
import { GetPublicPageInputSchema, PublicPageSchema } from './public-schemas.ts';
import {
  CreatePageInputSchema,
  DeletedSchema,
  GetPagesInputSchema,
  IdInputSchema,
  PageListSchema,
  PageSchema,
  UpdatePageInputSchema,
} from './schemas.ts';
import {
  DeleteSubscriberInputSchema,
  GetSubscribersInputSchema,
  SubscriberDeletedSchema,
  SubscriberListSchema,
} from './subscribers/schemas.ts';

const read = { access: [statuspageAccess.read] };
const manage = { access: [statuspageAccess.manage] };
const publish = { access: [statuspageAccess.publish] };

export const statuspageContract = defineContract('statuspage', {
  getPages: query({
    ...read,
    ...attachedListOfSystems('systemIds', 'pages'),
    summary: 'Status pages by slug, drafts included, a page at a time.',
  })
    .input(GetPagesInputSchema)
    .output(PageListSchema),
  getPage: query({
    ...read,
    ...attachedListOfSystems('systemIds'),
    summary: 'One status page with its sections.',
  })
    .errors(raises('NOT_FOUND'))
    .input(IdInputSchema)
    .output(PageSchema),
  createPage: mutation({
    ...manage,
    summary: 'Creates an unpublished status page; its slug (and custom domain) must be unique.',
    description:
      'Every system named in `sections` must exist and be within the caller’s team reach (manage); groups must exist.',
  })
    .errors(raises('CONFLICT'))
    .input(CreatePageInputSchema)
    .output(PageSchema),
  updatePage: mutation({
    ...manage,
    summary: 'Changes the given fields of a status page; `sections` replaces them all.',
  })
    .errors(raises('NOT_FOUND', 'CONFLICT'))
    .input(UpdatePageInputSchema)
    .output(PageSchema),
  deletePage: mutation({ ...manage, summary: 'Deletes a status page.' })
    .errors(raises('NOT_FOUND'))
    .input(IdInputSchema)
    .output(DeletedSchema),
  publishPage: mutation({
    ...publish,
    summary: 'Makes a page readable by everyone at its slug.',
    description:
      'The caller must reach (manage) every team-only system the page lists, and every one in the groups it lists.',
  })
    .errors(raises('NOT_FOUND'))
    .input(IdInputSchema)
    .output(PageSchema),
  unpublishPage: mutation({ ...publish, summary: 'Takes a page off the public web.' })
    .errors(raises('NOT_FOUND'))
    .input(IdInputSchema)
    .output(PageSchema),
  getSubscribers: query({
    ...manage,
    summary: "A page's e-mail subscribers by address, pending ones included, a page at a time.",
    description:
      'Personal data: only for those who manage the page (and reach its team-only systems). Subscribers have no account; they subscribe, confirm and unsubscribe through the anonymous routes under `/api/statuspage`.',
  })
    .errors(raises('NOT_FOUND'))
    .input(GetSubscribersInputSchema)
    .output(SubscriberListSchema),
  deleteSubscriber: mutation({
    ...manage,
    summary: "Removes one of a page's subscribers; nothing more is mailed to the address.",
  })
    .errors(raises('NOT_FOUND'))
    .input(DeleteSubscriberInputSchema)
    .output(SubscriberDeletedSchema),
  getPublicPage: query({
    summary:
      'A published page as visitors see it: status, 90 days of uptime, incidents, maintenance.',
    description:
      'Open to everyone, signed in or not. Answers only what the page publishes (display names, no internal ids); served from memory, refreshed when statuses, incidents or windows change. An unpublished or unknown slug is NOT_FOUND.',
  })
    .errors(raises('NOT_FOUND'))
    .input(GetPublicPageInputSchema)
    .output(PublicPageSchema),
});

export type StatuspageContract = typeof statuspageContract;

/** The body of the anonymous subscribe route (not a procedure), for forms to check before sending. */
export { SubscribeBodySchema } from './subscribers/schemas.ts';
