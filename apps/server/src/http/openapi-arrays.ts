import type { OpenAPI } from '@orpc/openapi';

type Parameter = OpenAPI.ParameterObject & { schema?: { type?: unknown } };

/**
 * oRPC describes array query parameters with style `deepObject`, which OpenAPI defines for
 * objects only. The REST surface takes an array as repeated keys (`tags=a&tags=b`, one value
 * being a one-element array), which is style `form` with `explode: true`.
 */
export function useFormStyleForQueryArrays(document: OpenAPI.Document) {
  for (const pathItem of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(pathItem ?? {})) {
      const parameters = (operation as OpenAPI.OperationObject).parameters ?? [];
      for (const parameter of parameters as Parameter[]) {
        if (parameter.in === 'query' && parameter.schema?.type === 'array') {
          parameter.style = 'form';
          parameter.explode = true;
        }
      }
    }
  }
}
