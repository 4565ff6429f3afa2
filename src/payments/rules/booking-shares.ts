import {
  cancelFeeFrom,
  combinePolicies,
  NO_POLICY,
  type ResolvedPolicy,
  resolvePolicy,
  termsOf,
  type PaymentTerms,
} from "../../catalogue/rules/payment-policy";
import type { PricedService } from "../../catalogue/rules/service-payment";
import { effectivePrice } from "../../catalogue/rules/service-terms";

export interface BookingLines {
  id: string;
  services: readonly { serviceId: string; start: number; quantity: number }[];
}

export interface BookingShare {
  bookingId: string;
  policy: ResolvedPolicy;
  terms: PaymentTerms;
  /** What of the checkout's payment is this booking's (minor units). */
  paid: number;
  cancelFeeFrom: number | null;
}

/**
 * Each booking's part of one checkout (a cart pays once for several
 * bookings): its own policy resolved from its services, and its share of
 * what was paid, in proportion to what it asked, so the shares add up to the
 * amount paid to the cent (the last booking takes the rounding). `agreed` is
 * what the reservation fixed and the customer paid: when the policies no
 * longer give it, it is what the bookings keep.
 */
export function bookingShares(
  bookings: readonly BookingLines[],
  services: ReadonlyMap<string, PricedService>,
  paid: number,
  agreed: PaymentTerms,
): BookingShare[] {
  const { currency } = agreed;
  const current = bookings.map((b) => {
    const policy = combinePolicies(
      b.services.flatMap((s) => {
        const service = services.get(s.serviceId);
        if (!service) return [];
        const one = resolvePolicy(service.paymentPolicy ?? NO_POLICY, effectivePrice(service));
        return Array.from({ length: Math.max(1, s.quantity) }, () => one);
      }),
    );
    const start = Math.min(...b.services.map((s) => s.start));
    return { bookingId: b.id, policy, terms: termsOf(policy, currency), start };
  });
  const asked = current.map((r) => r.terms.amount_due_now);
  const resolved = sameTerms(
    termsOf(combinePolicies(current.map((r) => r.policy)), currency),
    agreed,
  )
    ? current
    : agreedSplit(current, agreed, asked);
  const paidShares = split(paid, asked);
  return resolved.map((r, i) => {
    const share = paidShares[i] ?? 0;
    return {
      bookingId: r.bookingId,
      policy: r.policy,
      terms: r.terms,
      paid: share,
      cancelFeeFrom: cancelFeeFrom(r.policy, r.start),
    };
  });
}

/** What a reservation fixed and what the services' policies give now are the same terms. */
const sameTerms = (a: PaymentTerms, b: PaymentTerms) =>
  a.mode === b.mode &&
  a.amount_due_now === b.amount_due_now &&
  a.no_show_fee === b.no_show_fee &&
  a.late_cancel?.window_minutes === b.late_cancel?.window_minutes &&
  a.late_cancel?.fee === b.late_cancel?.fee;

/**
 * `total` in parts proportional to `weights` (equal parts when they are all
 * 0), adding up to it exactly: the last part takes the rounding.
 */
function split(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, w) => a + w, 0);
  let left = total;
  return weights.map((w, i) => {
    if (i === weights.length - 1) return left;
    const part = Math.floor(sum > 0 ? (total * w) / sum : total / weights.length);
    left -= part;
    return part;
  });
}

/**
 * The salon changed a policy after the reservation fixed its terms (the
 * customer saw and paid those): the terms the customer agreed to are what
 * the bookings keep, so no fee can be charged that was never shown. Each
 * amount is split over the bookings as the payment is.
 */
function agreedSplit<T extends { policy: ResolvedPolicy; terms: PaymentTerms }>(
  current: readonly T[],
  agreed: PaymentTerms,
  weights: readonly number[],
): T[] {
  const deposits = split(agreed.amount_due_now, weights);
  const lateFees = agreed.late_cancel ? split(agreed.late_cancel.fee, weights) : [];
  const noShows = agreed.no_show_fee !== null ? split(agreed.no_show_fee, weights) : [];
  return current.map((r, i) => {
    const policy: ResolvedPolicy = {
      mode: agreed.mode,
      ...(agreed.mode === "deposit" || agreed.mode === "prepay"
        ? { deposit: { amount: deposits[i] ?? 0 } }
        : {}),
      ...(agreed.late_cancel
        ? {
            late_cancel: {
              window_minutes: agreed.late_cancel.window_minutes,
              fee: { amount: lateFees[i] ?? 0 },
            },
          }
        : {}),
      ...(agreed.no_show_fee !== null ? { no_show_fee: { amount: noShows[i] ?? 0 } } : {}),
    };
    return { ...r, policy, terms: termsOf(policy, agreed.currency) };
  });
}
