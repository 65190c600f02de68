/**
 * The first `limit` bytes of a body (all of it when shorter); the rest is never read. Null for
 * no body.
 */
export async function readAtMost(
  body: { getReader(): ReadableStreamDefaultReader<Uint8Array> } | null,
  limit: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!body) return null;
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    if (size >= limit) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  const joined = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return joined.subarray(0, Math.min(size, limit));
}
