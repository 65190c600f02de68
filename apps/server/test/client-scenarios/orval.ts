// Runs beside `api.ts`, which orval writes from the served document in the test.
import {
  catalogCreateSystem,
  catalogGetSystems,
  healthcheckCreateHealthCheck,
  healthcheckGetSystemHealthStatus,
  notificationStreamNotifications,
} from './api.ts';
import { useBaseUrl } from './orval-fetch.ts';
import { scenarioSystemNames, type ScenarioInput, type ScenarioOutcome } from './scenario.ts';
import { pageToEnd } from './page-to-end.ts';
import { firstEvents } from './sse-events.ts';

export async function runScenario(input: ScenarioInput): Promise<ScenarioOutcome> {
  useBaseUrl(input.baseUrl);
  const asApplication = {
    headers: { authorization: `Bearer ${input.key}` },
    signal: input.signal,
  };
  const systemIds: string[] = [];
  for (const name of scenarioSystemNames) {
    const created = await catalogCreateSystem(
      { name: `${input.tag}-${name}`, tags: [input.tag] },
      asApplication,
    );
    if (created.status !== 200) throw new Error(`createSystem: ${JSON.stringify(created.data)}`);
    systemIds.push(created.data.id);
  }
  const systemId = systemIds[0]!;

  const check = await healthcheckCreateHealthCheck(
    {
      systemId,
      name: 'home page',
      type: 'healthcheck.http',
      config: { url: `${input.baseUrl}/healthz`, expectedStatus: [200] },
      intervalSeconds: 60,
    },
    asApplication,
  );
  if (check.status !== 200) throw new Error(`createHealthCheck: ${JSON.stringify(check.data)}`);

  const status = await healthcheckGetSystemHealthStatus({ systemId }, asApplication);
  if (status.status !== 200) throw new Error(`getSystemHealthStatus: ${JSON.stringify(status)}`);

  const paged = await pageToEnd(async (cursor) => {
    // orval writes a null query value as the text "null": the first page leaves `cursor` out.
    const page = await catalogGetSystems(
      { tags: [input.tag], limit: 2, ...(cursor === null ? {} : { cursor }) },
      asApplication,
    );
    if (page.status !== 200) throw new Error(`getSystems: ${JSON.stringify(page.data)}`);
    return {
      items: page.data.systems.map((system) => system.name),
      nextCursor: page.data.nextCursor,
    };
  });

  const stream = await notificationStreamNotifications({
    headers: { cookie: input.reader.cookie, origin: input.reader.origin },
    signal: input.signal,
  });
  if (stream.status !== 200) throw new Error(`streamNotifications: ${stream.status}`);
  // The mutator hands back the body of an event stream; the document types it as one event.
  const body = stream.data as unknown as ReadableStream<Uint8Array>;
  const events = await firstEvents(body, 2, input.notify);

  return {
    checkType: check.data.type,
    statusOfSystem: status.data.systemId,
    pagedNames: paged.items,
    pages: paged.pages,
    eventKinds: events.map((event) => (event as { kind: string }).kind),
  };
}
