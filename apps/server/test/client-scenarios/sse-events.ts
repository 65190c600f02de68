/**
 * Reads the `data:` payloads of the first `count` server-sent events of a body, calling
 * `afterFirst` once the first has arrived, then cancels the body (the stream never ends).
 */
export async function firstEvents(
  body: ReadableStream<Uint8Array>,
  count: number,
  afterFirst: () => Promise<void>,
): Promise<unknown[]> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const events: unknown[] = [];
  let buffered = '';
  try {
    while (events.length < count) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      let end = buffered.indexOf('\n\n');
      while (end !== -1 && events.length < count) {
        const data = buffered
          .slice(0, end)
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart());
        if (data.length > 0) {
          events.push(JSON.parse(data.join('\n')));
          if (events.length === 1) await afterFirst();
        }
        buffered = buffered.slice(end + 2);
        end = buffered.indexOf('\n\n');
      }
    }
  } finally {
    await reader.cancel();
  }
  return events;
}
