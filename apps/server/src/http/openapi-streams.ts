import type { AnyPlugin } from '@checkline/core';
import type { AnyContractProcedure } from '@orpc/contract';
import { getEventIteratorSchemaDetails } from '@orpc/contract';
import type { OpenAPI } from '@orpc/openapi';

const eventStream = 'text/event-stream';

/** The `data` schema of oRPC's `message` variant: what one event of the stream carries. */
function messageData(schema: OpenAPI.SchemaObject): OpenAPI.SchemaObject | undefined {
  const variants = (schema.oneOf ?? schema.anyOf ?? []) as OpenAPI.SchemaObject[];
  const message = variants.find(
    (variant) =>
      (variant.properties?.event as { const?: unknown } | undefined)?.const === 'message',
  );
  return message?.properties?.data;
}

const framing =
  'Each event is `event: message` with `data:` one JSON value of this schema (the schema is that value, as event-stream clients yield it). The stream stays open; comment lines keep it alive. If it fails after opening, it ends with `event: error` whose `data:` is an `ErrorResponse`.';

/**
 * oRPC describes a stream's `text/event-stream` answer as `{event, id, retry, data}` objects:
 * generators read that schema as each event's `data`, and type every event as the wrapper. Each
 * procedure whose output is an event iterator gets the schema of what one event carries instead,
 * with the framing in the description.
 */
export function describeEventStreams(
  document: OpenAPI.Document,
  plugins: readonly AnyPlugin[],
): void {
  for (const plugin of plugins) {
    for (const [name, procedure] of Object.entries(plugin.contract)) {
      const def = (procedure as AnyContractProcedure)['~orpc'];
      if (!getEventIteratorSchemaDetails(def.outputSchema)) continue;
      const item = (document.paths?.[`/rest/${plugin.id}/${name}`] ?? {}) as Record<
        string,
        OpenAPI.OperationObject
      >;
      for (const operation of Object.values(item)) {
        const ok = operation.responses?.['200'] as OpenAPI.ResponseObject | undefined;
        const media = ok?.content?.[eventStream];
        const data = media?.schema && messageData(media.schema);
        if (!ok || !media || !data) {
          throw new Error(`${plugin.id}.${name}: no text/event-stream message schema to describe`);
        }
        media.schema = data;
        ok.description = framing;
      }
    }
  }
}
