import { errorResponseNames, errorStatus } from '@checkline/core';
import type { ErrorCode } from '@checkline/core';
import type { OpenAPI } from '@orpc/openapi';

/** The error object of every surface: one shape, so clients parse one thing. */
export const errorSchema: OpenAPI.SchemaObject = {
  type: 'object',
  description: 'What went wrong; the same shape on every surface.',
  required: ['code', 'message', 'requestId'],
  properties: {
    code: { type: 'string', enum: Object.keys(errorStatus) },
    message: { type: 'string', description: 'Safe to show; never internals.' },
    procedure: { type: 'string', description: 'The failing key of a keyed batch.' },
    issues: {
      type: 'array',
      description: 'Invalid input only: each problem and where it is (a dot path).',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: { path: { type: 'string' }, message: { type: 'string' } },
      },
    },
    requestId: {
      type: 'string',
      description: 'Also in the `x-request-id` header and in every log line of the request.',
    },
  },
};

export const retryAfterHeader: OpenAPI.HeaderObject = {
  description: 'Seconds to wait before trying again.',
  schema: { type: 'integer', minimum: 0 },
  example: 30,
};

export const idempotentReplayedHeader: OpenAPI.HeaderObject = {
  description:
    '`true` when this success is the first answer to the same `Idempotency-Key`, replayed: the change was not applied again. Absent otherwise.',
  schema: { type: 'string', enum: ['true'] },
  example: 'true',
};

const retryAfter = { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } };

const statusCodes = Object.fromEntries(
  Object.entries(errorStatus).map(([code, status]) => [status, code as ErrorCode]),
) as Record<keyof typeof errorResponseNames, ErrorCode>;

const described: Record<
  keyof typeof errorResponseNames,
  { description: string; message: string; extra?: Record<string, unknown> }
> = {
  400: {
    description: 'The input is invalid; `issues` lists each problem.',
    message: 'Invalid input',
    extra: { issues: [{ path: 'name', message: 'Name must not be empty' }] },
  },
  401: { description: 'Credentials are missing or invalid.', message: 'Authentication required' },
  403: {
    description:
      'The caller lacks an access rule or a team grant, is of a kind the operation does not admit (the description says which), or sent a change with a session cookie without our `Origin`.',
    message: 'Missing access: catalog.catalog.manage',
  },
  404: { description: 'No such plugin, procedure or resource.', message: 'System not found' },
  405: {
    description: 'The path exists with another method, named by `Allow`.',
    message: 'Use GET for /rest/catalog/getSystems',
  },
  409: {
    description: 'A unique name is taken, or the change is stale.',
    message: 'A system named payments already exists',
  },
  413: { description: 'The body is over 1 MiB.', message: 'Request body too large' },
  422: {
    description: 'The `Idempotency-Key` was first sent with another input to this operation.',
    message:
      'Idempotency-Key 5b0c… was first sent to catalog.createSystem with another input; a new request needs a new key',
  },
  429: {
    description: 'Rate limited; retry after `Retry-After` seconds.',
    message: 'Too many requests',
  },
  500: {
    description: 'An unexpected failure; the details are only in the log, under `requestId`.',
    message: 'Internal server error',
  },
  503: {
    description: 'The database is unreachable; retry after `Retry-After` seconds.',
    message: 'Service temporarily unavailable',
  },
};

const headersFor = (status: keyof typeof errorResponseNames) =>
  status === 429 || status === 503
    ? retryAfter
    : status === 405
      ? {
          Allow: {
            description: 'The methods this path takes (`GET, HEAD` for a read).',
            schema: { type: 'string' as const },
          },
        }
      : undefined;

/** `components.responses`: one named response per error status, with an example. */
export const errorResponses: Record<string, OpenAPI.ResponseObject> = Object.fromEntries(
  Object.entries(errorResponseNames).map(([key, name]) => {
    const status = Number(key) as keyof typeof errorResponseNames;
    const { description, message, extra } = described[status];
    const headers = headersFor(status);
    const example = {
      code: statusCodes[status],
      message,
      ...extra,
      requestId: '3f0b5f4e-8a51-4c1e-9a4c-2f7d1b6e0c9a',
    };
    return [
      name,
      {
        description,
        ...(headers && { headers }),
        content: {
          'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' }, example },
        },
      },
    ];
  }),
);

/** `components.parameters.IdempotencyKey`: the retry key every mutation accepts. */
export const idempotencyKeyParameter: OpenAPI.ParameterObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes the change safe to retry: for 24 h a request of the same caller to the same operation with this key and the same input answers the first success again (with `Idempotent-Replayed: true`) instead of applying twice; another input is 422, a retry while the first still runs 409. Failed attempts are not kept. 1 to 255 printable ASCII characters; a UUID is a good key.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
  example: '5b0c8f7e-2d7a-4c4e-9f51-0b8f3f0c6a21',
};

/**
 * What every path answers when the request's `Host` is neither this server's nor a custom domain
 * a plugin claims (or is a custom domain that does not serve the path): see `custom-domains.ts`.
 */
export const hostNotServedResponse: OpenAPI.ResponseObject = {
  description:
    "The request's `Host` is neither this server's address (its `BASE_URL`, a bare IP address, `localhost` or a single-label name) nor a status page's custom domain serving this path.",
  content: {
    'application/json': {
      schema: { $ref: '#/components/schemas/ErrorResponse' },
      example: {
        code: 'NOT_FOUND',
        message: 'Nothing is served at this host and path',
        requestId: '3f0b5f4e-8a51-4c1e-9a4c-2f7d1b6e0c9a',
      },
    },
  },
};

/**
 * The answers of a page that ends in a redirect whatever happens, when the redirect cannot be
 * made: any status it does not list is an error of this shape.
 */
export const otherErrorResponse: OpenAPI.ResponseObject = {
  description:
    'Any other answer is an error of this shape: a request to a host this server does not serve whose lookup fails (503), say.',
  content: {
    'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } },
  },
};
