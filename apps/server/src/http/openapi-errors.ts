import { errorResponseNames, errorStatus } from '@checkline/core';
import type { ErrorCode } from '@checkline/core';
import type { OpenAPI } from '@orpc/openapi';

/** The error object of every surface (API.md 3). */
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
    description: 'The caller lacks an access rule, or the resource is team-only.',
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
            description: 'The method this path takes.',
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
          'application/json': { schema: { $ref: '#/components/schemas/Error' }, example },
        },
      },
    ];
  }),
);
