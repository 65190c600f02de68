/**
 * Asks `answer` until `done` holds, for one second at most (every 20 ms); the last answer either
 * way, for the caller to assert on. One second is how soon a change made through one server
 * process must reach the others.
 */
export async function withinOneSecond<T>(answer: () => Promise<T>, done: (value: T) => boolean) {
  const deadline = Date.now() + 1_000;
  for (;;) {
    const value = await answer();
    if (done(value) || Date.now() >= deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
