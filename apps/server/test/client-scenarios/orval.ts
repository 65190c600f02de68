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

  const pagedNames: string[] = [];
  let pages = 0;
  let cursor: string | null = null;
  do {
    // orval writes a null query value as the text "null": the first page leaves `cursor` out.
    const page = await catalogGetSystems(
      { tags: [input.tag], limit: 2, ...(cursor === null ? {} : { cursor }) },
      asApplication,
    );
    if (page.status !== 200) throw new Error(`getSystems: ${JSON.stringify(page.data)}`);
    pages += 1;
    pagedNames.push(...page.data.systems.map((system) => system.name));
    cursor = page.data.nextCursor;
  } while (cursor !== null && pages < 10);

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
    pagedNames,
    pages,
    eventKinds: events.map((event) => (event as { kind: string }).kind),
  };
}
