import { cancelUse, type HeldUse, type UseEnd } from "./settle-use";

/** How a booking ends, as far as its credits care. */
export type BookingEnd =
  | { kind: "complete" }
  | {
      kind: "cancel";
      /** When it was cancelled and when it was to start (ms). */
      at: number;
      start: number;
      /** Cancelled as a no-show (`didnt_come`). */
      noShow: boolean;
    };

/** The cancel reason that records a no-show. */
export const NO_SHOW_REASON = "didnt_come";

interface UseState extends HeldUse {
  id: string;
  state: "reserved" | "used" | "returned";
}

/**
 * What ending a booking does with each use it still holds: a complete uses
 * them all; a cancel settles each by the policy copied when it was booked.
 * A use already ended (an earlier end, a service replaced) is left alone.
 */
export function endsOf<U extends UseState>(
  uses: readonly U[],
  end: BookingEnd,
): { use: U; end: UseEnd }[] {
  return uses
    .filter((u) => u.state === "reserved")
    .map((use) => ({ use, end: end.kind === "complete" ? "used" : cancelUse(use, end) }));
}

/**
 * The uses a booking moved to `start` could no longer hold: a credit pays
 * only for a booking that starts before it expires.
 */
export function expiredBy<U extends { state: string; creditId: string }>(
  uses: readonly U[],
  credits: readonly { id: string; expiresAt: number }[],
  start: number,
): U[] {
  const expiry = new Map(credits.map((c) => [c.id, c.expiresAt]));
  return uses.filter((u) => u.state === "reserved" && start >= (expiry.get(u.creditId) ?? 0));
}

/**
 * What replacing the service of a credit-paid booked service does with its
 * use: kept when the same credit names the new service too (the booking
 * stays paid by it), else returned (the new service is paid at its price).
 */
export const replacedUse = (credit: { serviceIds: readonly string[] }, newServiceId: string) =>
  credit.serviceIds.includes(newServiceId) ? ("kept" as const) : ("returned" as const);
