import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parser } from '@prometheus-io/lezer-promql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrape, type Scrape } from './support/metrics-scrape.ts';
import { createTestServer, type TestServer } from './support/test-server.ts';

/**
 * docs/grafana/checkline.json reads only what `GET /metrics` answers: every query parses as
 * PromQL (the Prometheus project's own grammar) and every metric it names is in a real scrape.
 */
interface Panel {
  title: string;
  type: string;
  targets?: { expr: string }[];
}

const dashboard = JSON.parse(
  readFileSync(new URL('../../../docs/grafana/checkline.json', import.meta.url), 'utf8'),
) as { panels: Panel[]; title: string };

/** Grafana's own variables, as Grafana substitutes them before Prometheus sees the query. */
const grafanaVariables = (expr: string) => expr.replaceAll('$__rate_interval', '5m');

const queries = dashboard.panels.flatMap((panel) =>
  (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })),
);

/** The metric names a query selects, and whether the grammar found an error in it. */
function parseQuery(expr: string): { metrics: string[]; error: boolean } {
  const text = grafanaVariables(expr);
  const metrics: string[] = [];
  let error = false;
  parser.parse(text).iterate({
    enter(node) {
      if (node.type.isError) error = true;
      if (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector') {
        metrics.push(text.slice(node.from, node.to));
      }
    },
  });
  return { metrics, error };
}

const TOKEN = randomBytes(32).toString('hex');
let server: TestServer;
let scraped: Scrape;

beforeAll(async () => {
  server = await createTestServer({ metricsToken: TOKEN });
  // A labelled histogram has no series before its first observation.
  expect((await server.request('/healthz')).status).toBe(200);
  scraped = await scrape(server.request, TOKEN);
});
afterAll(() => server?.close());

describe('the Grafana dashboard in docs/grafana', () => {
  it('has queries, each valid PromQL naming at least one metric', () => {
    expect(queries.length).toBeGreaterThan(15);
    for (const query of queries) {
      const parsed = parseQuery(query.expr);
      expect({ ...query, error: parsed.error }).toEqual({ ...query, error: false });
      expect(parsed.metrics.length, query.panel).toBeGreaterThan(0);
    }
  });

  it('queries only metrics the server exposes', () => {
    const named = new Set(queries.flatMap((query) => parseQuery(query.expr).metrics));
    const absent = [...named].filter((name) => !scraped.families.has(name));
    expect(absent).toEqual([]);
  });

  it('shows every checkline_ family the server exposes', () => {
    const named = new Set(
      queries
        .flatMap((query) => parseQuery(query.expr).metrics)
        .map((name) => name.replace(/_(bucket|sum|count)$/, '')),
    );
    const exposed = [...scraped.families.keys()].filter(
      (name) => name.startsWith('checkline_') && !/_(bucket|sum|count)$/.test(name),
    );
    expect(exposed.filter((name) => !named.has(name))).toEqual([]);
  });
});
