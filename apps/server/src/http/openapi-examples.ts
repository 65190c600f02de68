import type { OpenAPI } from '@orpc/openapi';

type Schema = OpenAPI.SchemaObject & { const?: unknown };

/** Fixed sample values, so the committed document is the same on every generation. */
const sampleUuid = '0b6e3c7a-4f1d-4a8e-9c2b-5d7f1e3a9b64';
const formatSamples: Record<string, string> = {
  uuid: sampleUuid,
  'date-time': '2026-01-15T09:30:00.000Z',
  email: 'ops@example.org',
  uri: 'https://status.example.org/health',
};

/** Words a field's name suggests, tried before the generic ones; each must still fit the schema. */
const namedSamples: Record<string, string[]> = {
  name: ['payments-api', 'Payments API'],
  title: ['Checkout is slow'],
  password: ['correct-horse-battery-staple'],
  newPassword: ['correct-horse-battery-staple'],
  currentPassword: ['the-password-set-before'],
  slug: ['payments'],
  strategyId: ['notification-smtp.smtp'],
  resourceType: ['catalog.system'],
  resourceId: [sampleUuid],
  host: ['status.example.org'],
  customDomain: ['status.example.org'],
};

/** Generic strings, for patterns: a plugin id with a name, a slug, a colour, a host. */
const genericSamples = [
  'example',
  'catalog.system',
  'notification.system-alerts',
  'healthcheck.http',
  'payments',
  '#336699',
  'status.example.org',
  'X-Checkline-Example',
];

const fitsString = (schema: Schema, text: string) =>
  (schema.minLength === undefined || text.length >= schema.minLength) &&
  (schema.maxLength === undefined || text.length <= schema.maxLength) &&
  (schema.pattern === undefined || new RegExp(schema.pattern, 'u').test(text));

function stringSample(schema: Schema, name: string | undefined, where: string): string {
  const format = schema.format && formatSamples[schema.format];
  if (format) return format;
  const candidates = [...(name ? (namedSamples[name] ?? []) : []), ...genericSamples];
  const fit = candidates.find((text) => fitsString(schema, text));
  if (fit !== undefined) return fit;
  const padded = 'x'.repeat(Math.max(1, schema.minLength ?? 1));
  if (fitsString(schema, padded)) return padded;
  throw new Error(`No example string fits the schema at ${where}; add a sample that does`);
}

function numberSample(schema: Schema): number {
  const low = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const high = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  if (low !== undefined) return low;
  if (high !== undefined && high < 1) return high;
  return 1;
}

function resolve(document: OpenAPI.Document, schema: Schema): Schema {
  const ref = (schema as { $ref?: string }).$ref;
  if (!ref) return schema;
  const name = ref.replace('#/components/schemas/', '');
  const target = document.components?.schemas?.[name];
  if (!target) throw new Error(`Unresolvable ${ref}`);
  return resolve(document, target);
}

/**
 * A value valid against `schema` built from it: the required properties of an object (optional
 * ones left out), the first variant of a union, the default or the first allowed value. Fixed
 * samples keep the document stable; a schema no sample fits throws, naming where.
 */
function exampleOf(
  document: OpenAPI.Document,
  given: OpenAPI.SchemaObject | OpenAPI.ReferenceObject,
  where: string,
  name?: string,
): unknown {
  const schema = resolve(document, given);
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.examples?.[0] !== undefined) return schema.examples[0];
  if (schema.enum?.[0] !== undefined) return schema.enum[0];
  const variants = schema.oneOf ?? schema.anyOf;
  if (variants?.[0]) return exampleOf(document, variants[0], `${where}/0`, name);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      return Object.fromEntries(
        (schema.required ?? []).map((key) => [
          key,
          exampleOf(document, properties[key] ?? {}, `${where}.${key}`, key),
        ]),
      );
    }
    case 'array': {
      const count = Math.max(1, schema.minItems ?? 1);
      const items = (schema as { items?: Schema }).items ?? {};
      return Array.from({ length: count }, () => exampleOf(document, items, `${where}[]`, name));
    }
    case 'string':
      return stringSample(schema, name, where);
    case 'integer':
    case 'number':
      return numberSample(schema);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return {};
  }
}

type Operations = Record<string, OpenAPI.OperationObject>;

/**
 * Every REST operation gets an example of its JSON body and of each required query parameter,
 * so a reference's "try it" and generated curl lines start from a valid call, never `"name": ""`.
 */
export function addRequestExamples(document: OpenAPI.Document): void {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!path.startsWith('/rest/')) continue;
    for (const [method, operation] of Object.entries(item as Operations)) {
      const where = `${method.toUpperCase()} ${path}`;
      const body = operation.requestBody as OpenAPI.RequestBodyObject | undefined;
      const media = body?.content['application/json'];
      if (media?.schema && media.example === undefined) {
        media.example = exampleOf(document, media.schema, where);
      }
      for (const parameter of (operation.parameters ?? []) as OpenAPI.ParameterObject[]) {
        if (!parameter.required || !parameter.schema || parameter.example !== undefined) continue;
        parameter.example = exampleOf(
          document,
          parameter.schema,
          `${where} ${parameter.name}`,
          parameter.name,
        );
      }
    }
  }
}
