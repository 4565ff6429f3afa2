import { Temporal } from "temporal-polyfill";

const DAY_MS = 86_400_000;

/**
 * The start of a membership's period `k` (1 = the one sold): `k − 1` calendar
 * months after the first, counted in UTC from the first period's start. A
 * start on the 31st falls on the last day of shorter months (Temporal's
 * `constrain`), and each period is counted from the first, never from the one
 * before, so January 31st gives February 28th, then March 31st.
 */
export function periodStart(firstStart: number, k: number): number {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`period ${k} is not a period`);
  return Temporal.Instant.fromEpochMilliseconds(firstStart)
    .toZonedDateTimeISO("UTC")
    .add({ months: k - 1 })
    .toInstant().epochMilliseconds;
}

/** The period (1, 2, …) an instant falls in; 0 before the first starts. */
export function periodAt(firstStart: number, at: number): number {
  if (at < firstStart) return 0;
  // A month is 28–31 days: start from an estimate at most one off, then step to the exact one.
  let k = Math.max(1, Math.floor((at - firstStart) / (31 * DAY_MS)) + 1);
  while (periodStart(firstStart, k + 1) <= at) k += 1;
  while (k > 1 && periodStart(firstStart, k) > at) k -= 1;
  return k;
}

/** When credits issued for a period starting at `start` stop being usable. */
export const creditsExpireAt = (start: number, validDays: number) => start + validDays * DAY_MS;
