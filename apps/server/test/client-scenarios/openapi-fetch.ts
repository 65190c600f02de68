// Runs beside `schema.ts`, which openapi-typescript writes from the served document in the test.
import createClient from 'openapi-fetch';
import type { paths } from './schema.ts';
import { scenarioSystemNames, type ScenarioInput, type ScenarioOutcome } from './scenario.ts';
import { pageToEnd } from './page-to-end.ts';
import { firstEvents } from './sse-events.ts';

export async function runScenario(input: ScenarioInput): Promise<ScenarioOutcome> {
  const client = createClient<paths>({
    baseUrl: input.baseUrl,
    headers: { authorization: `Bearer ${input.key}` },
  });
  const systemIds: string[] = [];
  for (const name of scenarioSystemNames) {
    const { data, error } = await client.POST('/rest/catalog/createSystem', {
      body: { name: `${input.tag}-${name}`, tags: [input.tag] },
      signal: input.signal,
    });
    if (!data) throw new Error(`createSystem: ${JSON.stringify(error)}`);
    systemIds.push(data.id);
  }
  const systemId = systemIds[0]!;

  const check = await client.POST('/rest/healthcheck/createHealthCheck', {
    body: {
      systemId,
      name: 'home page',
      type: 'healthcheck.http',
      config: { url: `${input.baseUrl}/healthz`, expectedStatus: [200] },
      intervalSeconds: 60,
    },
    signal: input.signal,
  });
  if (!check.data) throw new Error(`createHealthCheck: ${JSON.stringify(check.error)}`);

  const status = await client.GET('/rest/healthcheck/getSystemHealthStatus', {
    params: { query: { systemId } },
    signal: input.signal,
  });
  if (!status.data) throw new Error(`getSystemHealthStatus: ${JSON.stringify(status.error)}`);

  const paged = await pageToEnd(async (cursor) => {
    const page = await client.GET('/rest/catalog/getSystems', {
      params: { query: { tags: [input.tag], limit: 2, cursor } },
      signal: input.signal,
    });
    if (!page.data) throw new Error(`getSystems: ${JSON.stringify(page.error)}`);
    return {
      items: page.data.systems.map((system) => system.name),
      nextCursor: page.data.nextCursor,
    };
  });

  // The documented way to read a stream with openapi-fetch: parseAs 'stream' hands back the body.
  const stream = await client.GET('/rest/notification/streamNotifications', {
    headers: { authorization: null, cookie: input.reader.cookie, origin: input.reader.origin },
    parseAs: 'stream',
    signal: input.signal,
  });
  if (!stream.data) throw new Error(`streamNotifications: ${stream.response.status}`);
  const events = await firstEvents(stream.data, 2, input.notify);

  return {
    checkType: check.data.type,
    statusOfSystem: status.data.systemId,
    pagedNames: paged.items,
    pages: paged.pages,
    eventKinds: events.map((event) => (event as { kind: string }).kind),
  };
}
