/** What a customer package shows: decided by writes (void), the clock, its credits and its billing. */
export type PackageStatus = "active" | "used_up" | "expired" | "void" | "past_due";

export interface CreditCounts {
  total: number;
  used: number;
  reserved: number;
  expiresAt: number;
}

/** How many a credit can still give: neither used nor held by a booking ahead. */
export const available = (c: Pick<CreditCounts, "total" | "used" | "reserved">) =>
  c.total - c.used - c.reserved;

/**
 * A package's status at `now`. Void is final. A membership whose renewal
 * charge failed is `past_due` until paid, whatever its older credits hold.
 * Otherwise it is `expired` when every credit has expired, `used_up` when no
 * unexpired credit has anything left (a cancelled booking's credit coming back
 * makes it active again), else `active`: it can pay for a booking.
 */
export function packageStatus(
  pkg: { status: "active" | "void"; pastDue: boolean },
  credits: readonly CreditCounts[],
  now: number,
): PackageStatus {
  if (pkg.status === "void") return "void";
  if (pkg.pastDue) return "past_due";
  const live = credits.filter((c) => c.expiresAt > now);
  if (live.length === 0) return "expired";
  return live.some((c) => available(c) > 0) ? "active" : "used_up";
}

/** A package is touched once any credit was used or is held by a booking: a refund must not void it. */
export const isTouched = (credits: readonly Pick<CreditCounts, "used" | "reserved">[]) =>
  credits.some((c) => c.used > 0 || c.reserved > 0);
