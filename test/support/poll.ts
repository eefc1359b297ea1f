/**
 * Polls `probe` until it returns something truthy and returns that. At the deadline it throws, naming
 * what was awaited and what the last probe saw, so a test never goes on as if the wait had succeeded.
 */
export async function pollUntil<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  { timeoutMs = 10_000, intervalMs = 100, seen }: { timeoutMs?: number; intervalMs?: number; seen?: () => unknown } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const last = lastError !== undefined ? `; the last probe threw: ${(lastError as Error)?.message ?? String(lastError)}` : seen ? `; last seen: ${JSON.stringify(seen())}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
