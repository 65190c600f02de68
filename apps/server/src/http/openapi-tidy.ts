import type { OpenAPI } from '@orpc/openapi';

/**
 * oRPC marks optional query parameters `allowEmptyValue` and `allowReserved`. Neither holds here:
 * an empty `limit=` or `cursor=` is BAD_REQUEST, and a value with reserved characters must be
 * percent-encoded like any other. Both flags are dropped.
 */
export function withoutQueryFlags(document: OpenAPI.Document) {
  for (const pathItem of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(pathItem ?? {})) {
      const parameters = (operation as OpenAPI.OperationObject).parameters ?? [];
      for (const parameter of parameters as OpenAPI.ParameterObject[]) {
        delete parameter.allowEmptyValue;
        delete parameter.allowReserved;
      }
    }
  }
}

/**
 * zod's `z.int()` carries the bounds of a safe integer (±(2^53 - 1)), which say nothing to a
 * reader and make generators emit odd literals: they are left out wherever they appear.
 */
export function withoutSafeIntegerBounds(node: unknown): void {
  if (typeof node !== 'object' || node === null) return;
  if (Array.isArray(node)) {
    for (const item of node) withoutSafeIntegerBounds(item);
    return;
  }
  const schema = node as Record<string, unknown>;
  if (schema.minimum === Number.MIN_SAFE_INTEGER) delete schema.minimum;
  if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum;
  for (const value of Object.values(schema)) withoutSafeIntegerBounds(value);
}
