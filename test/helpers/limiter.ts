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
