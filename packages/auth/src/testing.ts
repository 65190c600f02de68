import { OAuth2Server } from 'oauth2-mock-server';

/** The account the test issuer signs in: the claims of the ID tokens it issues next. */
export interface IssuerPerson {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  /** Replaces the nonce the client sent (a provider answering for another sign-in). */
  nonce?: string;
}

/**
 * A real OpenID Connect provider on loopback (`oauth2-mock-server`): discovery, an authorize
 * endpoint that redirects straight back with a code, PKCE checks, RS256 ID tokens for the person
 * set with {@link signInAs}, and the token requests it received.
 */
export async function startTestIssuer() {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  let person: IssuerPerson = { sub: 'nobody' };
  let emailInUserInfoOnly = false;
  const tokenRequests: { authorization: string | undefined; body: Record<string, string> }[] = [];
  server.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    // The ID token is the one with an audience: the client id.
    if (token.payload.aud === undefined) return;
    const { email, email_verified, ...rest } = person;
    Object.assign(token.payload, emailInUserInfoOnly ? rest : { ...rest, email, email_verified });
  });
  server.service.on('beforeUserinfo', (response: { body: Record<string, unknown> }) => {
    const { nonce: _nonce, ...claims } = person;
    response.body = claims;
  });
  server.service.on(
    'beforeResponse',
    (
      _response: unknown,
      request: { headers: Record<string, string>; body: Record<string, string> },
    ) => {
      tokenRequests.push({ authorization: request.headers.authorization, body: request.body });
    },
  );
  return {
    url: server.issuer.url!,
    tokenRequests,
    /**
     * The person signed in next. With `emailInUserInfoOnly` the ID token has no e-mail claims;
     * the userinfo endpoint has them, as some providers do.
     */
    signInAs(next: IssuerPerson, options: { emailInUserInfoOnly?: boolean } = {}) {
      person = next;
      emailInUserInfoOnly = options.emailInUserInfoOnly ?? false;
    },
    /** Follows the provider's authorize URL, as a browser would: answers where it sends back. */
    async authorize(authorizeUrl: string): Promise<URL> {
      const response = await fetch(authorizeUrl, { redirect: 'manual' });
      const location = response.headers.get('location');
      if (response.status !== 302 || !location) {
        throw new Error(`the test issuer answered ${response.status}: ${await response.text()}`);
      }
      return new URL(location);
    },
    close: () => server.stop(),
  };
}

export type TestIssuer = Awaited<ReturnType<typeof startTestIssuer>>;
