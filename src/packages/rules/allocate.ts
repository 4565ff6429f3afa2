import { available, type CreditCounts } from "./status";

export interface CreditLine extends CreditCounts {
  id: string;
  period: number;
  position: number;
  serviceIds: readonly string[];
}

/** A booked service that asks a package to pay for it. */
export interface CreditAsk {
  /** The booked service's id (one use per booked service). */
  key: string;
  serviceId: string;
  /** The booking's start: the credit must not have expired by then. */
  start: number;
  /** Credits it takes: one per seat. */
  count: number;
}

export type AllocationRefusal =
  /** No credit of the package names the service (422: the request is wrong). */
  | "not_covered"
  /** Credits name it, but every one expires before the booking starts (409). */
  | "expired"
  /** Credits name it and last, but none has enough left (409). */
  | "used_up";

export type Allocation =
  | { ok: true; uses: { key: string; creditId: string; count: number }[] }
  | { ok: false; refusals: { key: string; why: AllocationRefusal }[] };

/**
 * Which credit pays for each asked service, all or nothing. Each ask takes the
 * credit that names its service, lasts past its start and has enough left,
 * soonest to expire first (then the template's order), so a customer never
 * loses credits that could have been used; asks are served in the order given
 * and each sees what earlier ones took. The write re-checks every count in
 * its batch; this only chooses.
 */
export function allocateCredits(
  credits: readonly CreditLine[],
  asks: readonly CreditAsk[],
): Allocation {
  const left = new Map(credits.map((c) => [c.id, available(c)]));
  const ordered = [...credits].sort(
    (a, b) => a.expiresAt - b.expiresAt || a.period - b.period || a.position - b.position,
  );
  const uses: { key: string; creditId: string; count: number }[] = [];
  const refusals: { key: string; why: AllocationRefusal }[] = [];
  for (const ask of asks) {
    const naming = ordered.filter((c) => c.serviceIds.includes(ask.serviceId));
    const lasting = naming.filter((c) => c.expiresAt > ask.start);
    const chosen = lasting.find((c) => (left.get(c.id) ?? 0) >= ask.count);
    if (chosen) {
      left.set(chosen.id, (left.get(chosen.id) ?? 0) - ask.count);
      uses.push({ key: ask.key, creditId: chosen.id, count: ask.count });
      continue;
    }
    const why: AllocationRefusal =
      naming.length === 0 ? "not_covered" : lasting.length === 0 ? "expired" : "used_up";
    refusals.push({ key: ask.key, why });
  }
  return refusals.length > 0 ? { ok: false, refusals } : { ok: true, uses };
}
