import { creditsExpireAt, periodStart } from "./periods";

/**
 * A package's period bounds: a membership's period `k` runs from its start to
 * the next's; a package's one period runs until its credits expire.
 */
export function periodBounds(
  pkg: { startsAt: number; validDays: number; renews: "month" | null },
  k: number,
): { start: number; end: number } {
  if (!pkg.renews)
    return { start: pkg.startsAt, end: creditsExpireAt(pkg.startsAt, pkg.validDays) };
  return { start: periodStart(pkg.startsAt, k), end: periodStart(pkg.startsAt, k + 1) };
}
