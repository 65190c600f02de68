// Runs beside `client/`, a copy of the client @hey-api/openapi-ts wrote into test/generated/client.
import { createClient } from './client/client/index.ts';
import {
  catalogCreateSystem,
  catalogGetSystems,
  healthcheckCreateHealthCheck,
  healthcheckGetSystemHealthStatus,
  notificationStreamNotifications,
} from './client/index.ts';
import { pageToEnd } from './page-to-end.ts';
import { scenarioSystemNames, type ScenarioInput, type ScenarioOutcome } from './scenario.ts';

export async function runScenario(input: ScenarioInput): Promise<ScenarioOutcome> {
  // The document's server is a variable, so the caller always names the address.
  const client = createClient({
    baseUrl: input.baseUrl,
    headers: { authorization: `Bearer ${input.key}` },
  });
  const systemIds: string[] = [];
  for (const name of scenarioSystemNames) {
    const { data, error } = await catalogCreateSystem({
      client,
      body: { name: `${input.tag}-${name}`, tags: [input.tag] },
      signal: input.signal,
    });
    if (!data) throw new Error(`createSystem: ${JSON.stringify(error)}`);
    systemIds.push(data.id);
  }
  const systemId = systemIds[0]!;

  const check = await healthcheckCreateHealthCheck({
    client,
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

  const status = await healthcheckGetSystemHealthStatus({
    client,
    query: { systemId },
    signal: input.signal,
  });
  if (!status.data) throw new Error(`getSystemHealthStatus: ${JSON.stringify(status.error)}`);

  // The client leaves a null query value out, so `nextCursor` goes back as it is.
  const paged = await pageToEnd(async (cursor) => {
    const page = await catalogGetSystems({
      client,
      query: { tags: [input.tag], limit: 2, cursor },
      signal: input.signal,
    });
    if (!page.data) throw new Error(`getSystems: ${JSON.stringify(page.error)}`);
    return {
      items: page.data.systems.map((system) => system.name),
      nextCursor: page.data.nextCursor,
    };
  });

  // The client reads the stream itself and yields each event's payload, typed by the document.
  // Leaving the loop does not end the request, so the stream gets an abort signal of its own.
  const reading = new AbortController();
  const { stream } = await notificationStreamNotifications({
    client,
    headers: { authorization: null, cookie: input.reader.cookie, origin: input.reader.origin },
    signal: AbortSignal.any([input.signal, reading.signal]),
    sseMaxRetryAttempts: 0,
  });
  const eventKinds: string[] = [];
  try {
    for await (const event of stream) {
      eventKinds.push(event.kind);
      if (eventKinds.length === 1) await input.notify();
      if (eventKinds.length === 2) break;
    }
  } finally {
    reading.abort();
  }

  return {
    checkType: check.data.type,
    statusOfSystem: status.data.systemId,
    pagedNames: paged.items,
    pages: paged.pages,
    eventKinds,
  };
}
