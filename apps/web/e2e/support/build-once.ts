import { buildWebIfStale } from '../../scripts/build.ts';

/** The browser tests run against the production build: make it first when it is stale. */
export default async function buildOnce() {
  await buildWebIfStale();
}
