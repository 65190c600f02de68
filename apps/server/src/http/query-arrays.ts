import type { RequestContext } from '@checkline/core';
import type { AnySchema } from '@orpc/contract';
import type { ConditionalSchemaConverter, JSONSchema } from '@orpc/openapi';
import type { StandardHandlerOptions, StandardHandlerPlugin } from '@orpc/server/standard';

type Schema = Exclude<JSONSchema, boolean>;

const isArraySchema = (schema: JSONSchema | undefined): boolean =>
  typeof schema === 'object' &&
  (schema.type === 'array' ||
    (schema.anyOf ?? []).some((option: JSONSchema) => isArraySchema(option)));

function objectOption(schema: Schema): Schema | undefined {
  if (schema.properties) return schema;
  for (const option of schema.anyOf ?? []) {
    if (typeof option === 'object' && option.properties) return option;
  }
  return undefined;
}

/**
 * A query string cannot tell a one-element array from a single value (`tags=prod`), so wherever
 * the input schema expects an array and the query gave one value, it becomes `[value]`. Repeated
 * keys (`tags=a&tags=b`) and bracket notation (`tags[0]=a`) already decode to arrays.
 */
function wrapSingleValuesInArrays(schema: JSONSchema, value: unknown): unknown {
  if (typeof schema !== 'object' || value === undefined || value === null) return value;
  if (isArraySchema(schema)) {
    if (Array.isArray(value)) return value;
    const scalar = typeof value !== 'object';
    const acceptsScalar = (schema.anyOf ?? []).some(
      (option) => typeof option === 'object' && option.type !== 'array' && option.type !== 'null',
    );
    return scalar && !acceptsScalar ? [value] : value;
  }
  const object = objectOption(schema);
  if (!object?.properties || typeof value !== 'object' || Array.isArray(value)) return value;
  const result: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [key, child] of Object.entries(object.properties)) {
    if (key in result) result[key] = wrapSingleValuesInArrays(child, result[key]);
  }
  return result;
}

/**
 * Applies `wrapSingleValuesInArrays` to the input of every GET procedure (the only ones read from
 * a query string). List it after `SmartCoercionPlugin`, so it runs first and the coercion then
 * sees the array.
 */
export class QueryArrayPlugin implements StandardHandlerPlugin<RequestContext> {
  private readonly schemas = new WeakMap<AnySchema & object, JSONSchema>();

  constructor(private readonly converters: readonly ConditionalSchemaConverter[]) {}

  init(options: StandardHandlerOptions<RequestContext>) {
    options.clientInterceptors ??= [];
    options.clientInterceptors.unshift(async (call) => {
      const def = call.procedure['~orpc'];
      if (def.route.method !== 'GET' || !def.inputSchema) return call.next();
      const schema = await this.jsonSchemaOf(def.inputSchema);
      return call.next({ ...call, input: wrapSingleValuesInArrays(schema, call.input) });
    });
  }

  private async jsonSchemaOf(schema: AnySchema & object): Promise<JSONSchema> {
    let json = this.schemas.get(schema);
    if (json === undefined) {
      json = {};
      for (const converter of this.converters) {
        // `condition` may answer with a promise, which `Array.find` would take as a match.
        if (!(await converter.condition(schema, { strategy: 'input' }))) continue;
        json = (await converter.convert(schema, { strategy: 'input' }))[1];
        break;
      }
      this.schemas.set(schema, json);
    }
    return json;
  }
}
