/** A JSON Schema node of the served document (the parts a minimal value needs). */
export type DocumentSchema = Record<string, any>;

export interface MinimalValueOptions {
  /** Resolves `#/components/schemas/X`. */
  resolve(ref: string): DocumentSchema;
  /** The id (or ids, for a `...Ids` array) a property named `name` should carry, if known. */
  idFor(name: string): string | undefined;
  /** A value to use for the property named `name`, before the schema is looked at. */
  valueFor?(name: string): unknown;
}

/**
 * The smallest value a schema accepts: required properties only, lower bounds, first variants,
 * with ids of the test's own records where a property names one. Enough to make one valid call
 * of an operation; the server decides whether it succeeds.
 */
export function minimalValue(
  schema: DocumentSchema,
  options: MinimalValueOptions,
  name = '',
): unknown {
  if (schema.$ref) return minimalValue(options.resolve(schema.$ref as string), options, name);
  const given = options.valueFor?.(name);
  if (given !== undefined) return given;
  if ('const' in schema) return schema.const;
  if (schema.enum) return (schema.enum as unknown[])[0];
  const variants = (schema.oneOf ?? schema.anyOf) as DocumentSchema[] | undefined;
  if (variants) {
    const first = variants.find((variant) => variant.type !== 'null') ?? variants[0]!;
    return minimalValue(first, options, name);
  }
  const type = Array.isArray(schema.type)
    ? (schema.type as string[]).find((candidate) => candidate !== 'null')
    : (schema.type as string | undefined);
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, DocumentSchema>;
      const required = (schema.required ?? []) as string[];
      return Object.fromEntries(
        required.map((key) => [key, minimalValue(properties[key] ?? {}, options, key)]),
      );
    }
    case 'array': {
      const id = /Ids$/.test(name) ? options.idFor(name) : undefined;
      if (id) return [id];
      const count = (schema.minItems as number | undefined) ?? 0;
      return Array.from({ length: count }, () =>
        minimalValue((schema.items ?? {}) as DocumentSchema, options, name.replace(/s$/, '')),
      );
    }
    case 'integer':
    case 'number': {
      const minimum = (schema.minimum as number | undefined) ?? 1;
      return schema.exclusiveMinimum === undefined ? minimum : Number(schema.exclusiveMinimum) + 1;
    }
    case 'boolean':
      return false;
    case 'string':
      return minimalString(schema, options, name);
    default:
      return {};
  }
}

function minimalString(schema: DocumentSchema, options: MinimalValueOptions, name: string): string {
  switch (schema.format) {
    case 'uuid':
      return options.idFor(name) ?? '5d7f5a02-3d8e-4a8c-9a3c-5b0c1f0c2a11';
    case 'email':
      return 'someone@example.com';
    case 'uri':
      return 'https://example.com/';
    case 'date-time':
      return new Date(Date.now() + 3_600_000).toISOString();
    default: {
      const length = Math.max((schema.minLength as number | undefined) ?? 1, 1);
      const plain = 'a'.repeat(length);
      if (typeof schema.pattern !== 'string') return plain;
      // Patterns here name things (`plugin.thing`, header names); one of these shapes fits.
      const pattern = new RegExp(schema.pattern);
      return [plain, 'a.a', 'a-a', 'A'].find((candidate) => pattern.test(candidate)) ?? plain;
    }
  }
}
