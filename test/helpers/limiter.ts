/** A rate limiter that lets `allowance` calls per key through and records every key it is asked about. */
export function fakeLimiter(allowance: number) {
  const keys: string[] = [];
  const used = new Map<string, number>();
  const limiter: RateLimit = {
    async limit({ key }) {
      keys.push(key);
      used.set(key, (used.get(key) ?? 0) + 1);
      return { success: (used.get(key) ?? 0) <= allowance };
    },
  };
  return { limiter, keys };
}

/**
 * Miniflare's rate limiters count in fixed windows of their period, aligned
 * to the epoch: calls meant to fill one window must not straddle two, or the
 * call past the limit lands in a fresh window and passes. Waits for the next
 * window when less than `needMs` of the current one is left (so it waits at
 * most `needMs`: keep it near what the calls take, it is the suite's time).
 */
export async function roomInWindow(needMs: number, periodMs = 60_000): Promise<void> {
  const left = periodMs - (Date.now() % periodMs);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
