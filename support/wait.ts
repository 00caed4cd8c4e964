/**
 * Waits until `check` gives a truthy value, polling every 50 ms, and returns that value; fails
 * naming `what` after `timeoutMilliseconds`. For what a test or a bench cannot be told about
 * (a job done in the background, a file another process writes).
 */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMilliseconds = 30_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMilliseconds;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
