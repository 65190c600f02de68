import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { OAuth2EndpointsInput } from 'oauth2-mock-server';
import { Events, OAuth2Server } from 'oauth2-mock-server';

/** A token endpoint call the provider received. */
export interface TokenCall {
  grantType: string;
  /** `Basic ...` as sent. */
  authorization: string | undefined;
  body: Record<string, unknown>;
  /** What the provider answered. */
  answer: Record<string, unknown>;
}

/** A revocation the provider received. */
export interface RevocationCall {
  authorization: string | undefined;
  form: URLSearchParams;
}

/**
 * A real OAuth 2 server (`oauth2-mock-server`) on a loopback port, recording every token and
 * revocation request. Token answers carry `authed_user.id` (`externalId`), as Slack's do.
 * `endpoints` moves its routes to a real provider's paths (`/api/oauth.v2.access`, say).
 */
export async function startOAuthProvider(
  options: { externalId?: string; endpoints?: OAuth2EndpointsInput } = {},
) {
  const server = new OAuth2Server(undefined, undefined, {
    ...(options.endpoints && { endpoints: options.endpoints }),
  });
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  const url = `http://127.0.0.1:${server.address().port}`;
  const tokenCalls: TokenCall[] = [];
  const revocations: RevocationCall[] = [];
  let externalId = options.externalId ?? 'U-LINKED';
  // Tokens signed within one second would otherwise be the same string: a refresh must show.
  server.service.on(Events.BeforeTokenSigning, (token: { payload: Record<string, unknown> }) => {
    token.payload.jti = randomUUID();
  });
  server.service.on(Events.BeforeResponse, (response: { body: unknown }, req) => {
    const body = (req as unknown as { body: Record<string, unknown> }).body;
    const answer = response.body as Record<string, unknown>;
    if (typeof answer.access_token === 'string') answer.authed_user = { id: externalId };
    tokenCalls.push({
      grantType: String(body.grant_type),
      authorization: req.headers.authorization,
      body,
      answer,
    });
  });
  server.service.on(Events.BeforeRevoke, (_response, req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () =>
      revocations.push({
        authorization: req.headers.authorization,
        form: new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
      }),
    );
  });
  return {
    url,
    server,
    tokenCalls,
    revocations,
    /** The account id the next token answers name. */
    setExternalId(id: string) {
      externalId = id;
    },
    /** The next token request is answered `400 {error}` (`invalid_grant`, say). */
    refuseNextToken(error: string) {
      server.service.once(
        Events.BeforeResponse,
        (response: { body: unknown; statusCode: number }) => {
          response.body = { error };
          response.statusCode = 400;
        },
      );
    },
    stop: () => server.stop(),
  };
}

export type OAuthProvider = Awaited<ReturnType<typeof startOAuthProvider>>;
