import type { OpenAPI } from '@orpc/openapi';
import { describe, expect, it } from 'vitest';
import { documentForReference } from './docs-document.ts';

const document = {
  openapi: '3.1.1',
  info: { title: 't', version: '1' },
  paths: {
    '/rest/catalog/getSystems': {
      get: {
        operationId: 'catalog.getSystems',
        summary: 'Systems, a page at a time.',
        description: 'Hidden systems are left out.',
        responses: {},
      },
    },
    '/healthz': { get: { operationId: 'health.live', summary: 'Alive.', responses: {} } },
    '/untitled': { get: { summary: 'No operation id.', responses: {} } },
  },
} as unknown as OpenAPI.Document;

describe('the document /api/docs shows', () => {
  it('titles each operation by its procedure name, with the summary first in the description', () => {
    const shown = documentForReference(document).paths as Record<string, any>;
    expect(shown['/rest/catalog/getSystems'].get).toMatchObject({
      summary: 'catalog.getSystems',
      description: 'Systems, a page at a time.\n\nHidden systems are left out.',
    });
    expect(shown['/healthz'].get).toMatchObject({ summary: 'health.live', description: 'Alive.' });
    expect(shown['/untitled'].get.summary).toBe('No operation id.');
  });

  it("sends Test Requests to the server serving the page, so the browser's session goes along", () => {
    expect(documentForReference(document).servers).toEqual([
      { url: '/', description: 'This server' },
    ]);
  });

  it('leaves the document generators read as it was', () => {
    const before = JSON.stringify(document);
    documentForReference(document);
    expect(JSON.stringify(document)).toBe(before);
  });
});
