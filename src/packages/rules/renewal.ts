import { periodAt, periodStart } from "./periods";

/** How long a declined renewal waits before the card is tried again. */
export const RETRY_AFTER_MS = 86_400_000;

export interface Billing {
  startsAt: number;
  /** The newest period paid. */
  period: number;
  renewing: boolean;
}

/**
 * The period a membership's sweep should charge at `now`, or null. Only the
 * period `now` falls in is ever charged: a membership that could not be
 * charged for months is not billed for the months it could not use.
 */
export function periodToCharge(b: Billing, now: number): number | null {
  if (!b.renewing) return null;
  const current = periodAt(b.startsAt, now);
  return current > b.period ? current : null;
}

/** When the sweep should next look at a membership that is paid through `period`. */
export const nextChargeAfter = (b: Billing): number | null =>
  b.renewing ? periodStart(b.startsAt, b.period + 1) : null;

/**
 * After a declined charge for `period`: tried again a day later, but never
 * past the next period's start (then that period is the one charged).
 */
export const retryAt = (b: Pick<Billing, "startsAt">, period: number, now: number) =>
  Math.min(now + RETRY_AFTER_MS, periodStart(b.startsAt, period + 1));

/**
 * The provider's Idempotency-Key for one try of one period's charge: the same
 * try repeated (an answer lost, two sweeps at once) is one charge; a new try
 * after a decline is a new key.
 */
export const renewalKey = (customerPackageId: string, period: number, attempt: number) =>
  `membership:${customerPackageId}:${period}:${attempt}`;
