import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import type { ParsedFamily } from 'parse-prometheus-text-format';

/**
 * A scrape parsed by a Prometheus text-format parser, by family name. The parser's grouping of
 * histograms keeps one unlabelled sample (parse-prometheus-text-format 1.1.1 drops the labels),
 * so histograms are declared untyped before parsing: their `_bucket`, `_sum` and `_count` series
 * then parse as families of their own, labels intact.
 */
export class Scrape {
  readonly families: Map<string, ParsedFamily>;
  readonly histograms: Set<string>;

  constructor(readonly text: string) {
    this.histograms = new Set(
      [...text.matchAll(/^# TYPE (\S+) histogram$/gm)].map((match) => match[1]!),
    );
    const untyped = text.replace(/^(# TYPE \S+) histogram$/gm, '$1 untyped');
    // Each label set's buckets, sum and count come together, so a series' name recurs: merged.
    this.families = new Map();
    for (const family of parsePrometheusTextFormat(untyped)) {
      const seen = this.families.get(family.name);
      if (seen) seen.metrics.push(...family.metrics);
      else this.families.set(family.name, family);
    }
  }

  /**
   * The sum over the family's samples whose labels include `labels`: values of counters and
   * gauges, observation counts of histograms and summaries. 0 when none match.
   */
  value(name: string, labels: Record<string, string> = {}): number {
    if (this.histograms.has(name)) return this.value(`${name}_count`, labels);
    const family = this.families.get(name);
    if (!family) throw new Error(`no metric family ${name} in the scrape`);
    return family.metrics
      .filter((sample) =>
        Object.entries(labels).every(([key, value]) => sample.labels?.[key] === value),
      )
      .reduce((sum, sample) => sum + Number(sample.value ?? 0), 0);
  }

  /** Every value a label takes in a family. */
  labelValues(name: string, label: string): string[] {
    const family = this.families.get(name);
    return [...new Set(family?.metrics.map((sample) => sample.labels?.[label] ?? '') ?? [])];
  }
}

/** `GET /metrics` with the token, parsed; throws unless it answers 200 in the text format. */
export async function scrape(
  request: (path: string, init?: RequestInit) => Response | Promise<Response>,
  token: string,
): Promise<Scrape> {
  const response = await request('/metrics', { headers: { authorization: `Bearer ${token}` } });
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  if (!response.headers.get('content-type')?.startsWith('text/plain')) {
    throw new Error(`/metrics answered ${response.headers.get('content-type')}`);
  }
  return new Scrape(await response.text());
}
