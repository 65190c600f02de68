/** The first `maxBytes` of a body as text; the rest is never read (the caller closes it). */
export async function readStart(
  body: AsyncIterable<Uint8Array>,
  maxBytes: number,
): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for await (const chunk of body) {
    const kept = chunk.subarray(0, maxBytes - bytes);
    bytes += kept.byteLength;
    text += decoder.decode(kept, { stream: true });
    if (bytes >= maxBytes) break;
  }
  return text + decoder.decode();
}
