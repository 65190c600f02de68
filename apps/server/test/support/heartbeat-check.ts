/** An admin's REST call: the body of a 200 answer; throws on any other status. */
type AdminRest = (procedure: string, body: unknown) => Promise<Record<string, any>>;

/**
 * A new system and a heartbeat check on it (an hour apart, 5 minutes' grace), made through
 * `rest`. The check's token is answered here, once; it is never shown again.
 */
export async function createHeartbeatCheck(rest: AdminRest, systemName: string, checkName: string) {
  const system = await rest('catalog/createSystem', { name: systemName });
  const check = await rest('healthcheck/createHealthCheck', {
    systemId: system.id,
    name: checkName,
    type: 'healthcheck.heartbeat',
    config: { graceSeconds: 300 },
    intervalSeconds: 3_600,
    timeoutMs: 1_000,
  });
  return { systemId: system.id as string, check, token: check.heartbeatToken as string };
}

/** Where a job posts its beats: no session, no key, only the token in the path. */
export const heartbeatPath = (token: string) => `/api/healthcheck/heartbeat/${token}`;
