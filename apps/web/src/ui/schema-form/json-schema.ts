/** The part of JSON Schema the server's config schemas use, with our own marks. */
export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
  /** Stored encrypted and never sent back: a password input, never prefilled. */
  'x-secret'?: boolean;
  /** A colour, `#rgb` or `#rrggbb`. */
  'x-color'?: boolean;
}

export type FieldKind =
  | 'secret'
  | 'color'
  | 'enum'
  | 'string'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'string-list'
  | 'object'
  | 'unsupported';

/** `T | null` (anyOf with null) read as `T`: the form leaves an optional field empty instead. */
export function unwrapNullable(schema: JsonSchema): JsonSchema {
  const variants = schema.anyOf ?? schema.oneOf;
  if (!variants) return schema;
  const rest = variants.filter((variant) => variant.type !== 'null');
  if (rest.length !== 1) return schema;
  const { anyOf: _anyOf, oneOf: _oneOf, ...outer } = schema;
  return { ...rest[0], ...outer };
}

const typeOf = (schema: JsonSchema) =>
  Array.isArray(schema.type) ? schema.type.find((type) => type !== 'null') : schema.type;

export function fieldKind(raw: JsonSchema): FieldKind {
  const schema = unwrapNullable(raw);
  if (schema['x-secret']) return 'secret';
  if (schema['x-color']) return 'color';
  if (schema.enum) return 'enum';
  const type = typeOf(schema);
  if (type === 'string') return 'string';
  if (type === 'number') return 'number';
  if (type === 'integer') return 'integer';
  if (type === 'boolean') return 'boolean';
  if (type === 'array' && schema.items && typeOf(unwrapNullable(schema.items)) === 'string') {
    return 'string-list';
  }
  if (type === 'object' && schema.properties) return 'object';
  return 'unsupported';
}

/** What the server accepts as a colour. */
const colorPattern = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** `webhookUrl` → `Webhook url`: a label when the schema has no title. */
export function labelOf(key: string, schema: JsonSchema): string {
  if (schema.title) return schema.title;
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Problems the form can see before sending: colours the server would refuse. Keyed by dotted
 * path like the server's `issues`.
 */
export function localIssues(
  schema: JsonSchema,
  value: Record<string, unknown>,
  prefix = '',
): Record<string, string> {
  const issues: Record<string, string> = {};
  for (const [key, raw] of Object.entries(schema.properties ?? {})) {
    const path = prefix ? `${prefix}.${key}` : key;
    const field = unwrapNullable(raw);
    const current = value[key];
    const kind = fieldKind(field);
    if (
      kind === 'color' &&
      typeof current === 'string' &&
      current !== '' &&
      !colorPattern.test(current)
    ) {
      issues[path] = 'A colour is #rgb or #rrggbb';
    }
    if (kind === 'object' && typeof current === 'object' && current !== null) {
      Object.assign(issues, localIssues(field, current as Record<string, unknown>, path));
    }
  }
  return issues;
}
