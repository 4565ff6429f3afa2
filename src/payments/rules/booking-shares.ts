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
 * amount paid to the cent (the last booking takes the rounding).
 */
export function bookingShares(
  bookings: readonly BookingLines[],
  services: ReadonlyMap<string, PricedService>,
  paid: number,
  currency: string,
): BookingShare[] {
  const resolved = bookings.map((b) => {
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
  const asked = resolved.reduce((sum, r) => sum + r.terms.amount_due_now, 0);
  let left = paid;
  return resolved.map((r, i) => {
    const last = i === resolved.length - 1;
    const share = last ? left : asked > 0 ? Math.floor((paid * r.terms.amount_due_now) / asked) : 0;
    left -= share;
    return {
      bookingId: r.bookingId,
      policy: r.policy,
      terms: r.terms,
      paid: share,
      cancelFeeFrom: cancelFeeFrom(r.policy, r.start),
    };
  });
}
