/** Queues cannot delay a message longer than 12 hours. */
export const MAX_DELAY_SECONDS = 12 * 60 * 60;

/**
 * Seconds to wait before try `attempt + 1`: exponential from `baseSeconds`
 * with "equal jitter" (half fixed, half random) so receivers that failed
 * together are not hit together again; a receiver's Retry-After, when longer,
 * wins. `random` is in [0, 1). One rule for every queue that retries a send:
 * webhook deliveries and customer messages each pass their own base.
 */
export function retryDelaySeconds(
  attempt: number,
  baseSeconds: number,
  random: number,
  retryAfterSeconds: number | null = null,
): number {
  const exp = Math.min(baseSeconds * 2 ** Math.max(0, attempt - 1), MAX_DELAY_SECONDS);
  const jittered = Math.floor(exp / 2 + (exp / 2) * random);
  return Math.min(Math.max(jittered, retryAfterSeconds ?? 0), MAX_DELAY_SECONDS);
}

/** Retry-After as seconds (delta or HTTP date), or null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}
