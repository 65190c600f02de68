const location = (example: string) => ({
  Location: {
    description: 'Where the browser goes next.',
    schema: { type: 'string', format: 'uri' },
    example,
  },
});

const FAILURE =
  'Any failure goes to the error page `{FRONTEND_URL}/auth/error?error=<message>` (spaces as underscores), never JSON.';

/** The API reference of the two browser routes of an OpenID Connect strategy. */
export function oidcOperations(displayName: string) {
  return {
    login: {
      summary: `Begins signing in with ${displayName}: redirects the browser to the provider.`,
      description: `Authorization code with PKCE (S256), \`state\` and \`nonce\`; the state is single use, bound to this browser by an HttpOnly cookie, and expires after 10 minutes. ${FAILURE}`,
      parameters: [
        {
          name: 'returnTo',
          in: 'query',
          required: false,
          description: 'A path on the frontend to land on once signed in (relative only).',
          schema: { type: 'string', default: '/', example: '/systems' },
        },
      ],
      responses: {
        '302': {
          description: 'To the provider’s authorization endpoint, or to the error page.',
          headers: location(
            'https://id.example.com/authorize?response_type=code&client_id=checkline',
          ),
        },
      },
    },
    callback: {
      summary: `Where ${displayName} sends the browser back: signs the person in.`,
      description: `Matches the user by the provider’s subject, then by verified e-mail; creates one only while registration is allowed (else \`Registration is disabled\`). ${FAILURE}`,
      parameters: ['code', 'state', 'error'].map((name) => ({
        name,
        in: 'query',
        required: false,
        schema: { type: 'string' },
      })),
      responses: {
        '302': {
          description:
            'Signed in: to the return path on the frontend, with the session cookie. Or to the error page.',
          headers: {
            ...location('http://localhost:3000/systems'),
            'Set-Cookie': {
              description: '`checkline_session`: HttpOnly, SameSite=Lax, Secure under https.',
              schema: { type: 'string' },
            },
          },
        },
      },
    },
  };
}
