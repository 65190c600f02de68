import type { AnyPlugin } from '@checkline/core';
import type { AnyContractProcedure, AnyContractRouter } from '@orpc/contract';
import { ContractProcedure } from '@orpc/contract';
import type { OpenAPI } from '@orpc/openapi';

/**
 * The plugin's contract as the API reference describes it: each procedure the plugin names in
 * `documentedInputs()` shows that input schema (a union by check type, say) instead of the
 * contract's own. The surfaces still validate with the contract.
 */
export function documentedContract(plugin: AnyPlugin): AnyContractRouter {
  const inputs = plugin.documentedInputs?.() ?? {};
  const unknown = Object.keys(inputs).filter((name) => !(name in plugin.contract));
  if (unknown.length > 0) {
    throw new Error(`Plugin ${plugin.id} documents inputs of no procedure: ${unknown.join(', ')}`);
  }
  if (Object.keys(inputs).length === 0) return plugin.contract;
  return Object.fromEntries(
    Object.entries(plugin.contract).map(([name, procedure]) => {
      const inputSchema = inputs[name];
      if (!inputSchema) return [name, procedure];
      const def = (procedure as AnyContractProcedure)['~orpc'];
      return [name, new ContractProcedure({ ...def, inputSchema })];
    }),
  );
}

/** The property a documented input is discriminated by (`z.discriminatedUnion`), if any. */
function discriminatorOf(schema: unknown): string | undefined {
  const def = (schema as { _zod?: { def?: { type?: string; discriminator?: unknown } } })._zod?.def;
  return def?.type === 'union' && typeof def.discriminator === 'string'
    ? def.discriminator
    : undefined;
}

const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

/**
 * `anyOf` of variants told apart by one property becomes `oneOf` of named components (a
 * `discriminator` selects only `$ref`s), named `{Procedure}{Value}`: `CreateHealthCheckHealthcheckHttp`.
 */
function asDiscriminated(
  document: OpenAPI.Document,
  schema: OpenAPI.SchemaObject | undefined,
  procedure: string,
  propertyName: string,
) {
  if (!schema || !Array.isArray(schema.anyOf)) return;
  const schemas = (document.components ??= {}).schemas ?? (document.components.schemas = {});
  const mapping: Record<string, string> = {};
  const oneOf = schema.anyOf.map((variant) => {
    const value = (variant as OpenAPI.SchemaObject).properties?.[propertyName] as
      { const?: unknown } | undefined;
    if (typeof value?.const !== 'string') {
      throw new Error(`${procedure}: a variant without a constant ${propertyName}`);
    }
    const name = `${pascal(procedure)}${pascal(value.const)}`;
    schemas[name] = variant;
    mapping[value.const] = `#/components/schemas/${name}`;
    return { $ref: mapping[value.const] };
  });
  delete schema.anyOf;
  Object.assign(schema, { oneOf, discriminator: { propertyName, mapping } });
}

/**
 * oRPC describes every union as `anyOf`; a documented input made with `z.discriminatedUnion`
 * becomes `oneOf` with a `discriminator`, in its REST body and in its plugin's keyed body.
 */
export function markDiscriminatedInputs(
  document: OpenAPI.Document,
  plugins: readonly AnyPlugin[],
): void {
  for (const plugin of plugins) {
    for (const [name, schema] of Object.entries(plugin.documentedInputs?.() ?? {})) {
      const propertyName = discriminatorOf(schema);
      if (!propertyName) continue;
      const restItem = (document.paths?.[`/rest/${plugin.id}/${name}`] ?? {}) as Record<
        string,
        OpenAPI.OperationObject
      >;
      const restBody = Object.values(restItem).find((operation) => operation.requestBody)
        ?.requestBody as OpenAPI.RequestBodyObject | undefined;
      asDiscriminated(document, restBody?.content['application/json']?.schema, name, propertyName);
      const keyed = document.paths?.[`/api/${plugin.id}`]?.post?.requestBody as
        OpenAPI.RequestBodyObject | undefined;
      const keyedSchema = keyed?.content['application/json']?.schema as OpenAPI.SchemaObject;
      const keyedInput = keyedSchema?.properties?.[name];
      asDiscriminated(document, keyedInput, name, propertyName);
    }
  }
}
