import { effectivePrice } from "./service-terms";
import {
  combinePolicies,
  NO_POLICY,
  needsPayment,
  type PaymentPolicy,
  type PaymentTerms,
  type ResolvedPolicy,
  resolvePolicy,
  termsOf,
} from "./payment-policy";

/** A service as the payment rules need it: its policy (null: none) and its prices. */
export interface PricedService {
  paymentPolicy: PaymentPolicy | null;
  price: number;
  priceDiscount: number | null;
}

/** One service of a visit, with the seats booked of it (1 unless a group service). */
export interface PaymentLine {
  service: PricedService;
  quantity: number;
}

/** A seat's resolved policy for `seats` seats: every amount counts once per seat. */
const forSeats = (p: ResolvedPolicy, seats: number): ResolvedPolicy =>
  combinePolicies(Array.from({ length: seats }, () => p));

/**
 * What a visit of several services (one booking's, a cart's, a reservation's)
 * asks of a customer booking online: each service's policy resolved against
 * the price a seat costs (its discounted price when it has one), counted once
 * per seat booked, then all of them combined (amounts added, the strictest
 * mode, the longest late-cancel window). Null when nothing is asked (every
 * service's mode is none).
 */
export function visitPaymentTerms(lines: PaymentLine[], currency: string): PaymentTerms | null {
  const terms = termsOf(
    combinePolicies(
      lines.map((l) =>
        forSeats(
          resolvePolicy(l.service.paymentPolicy ?? NO_POLICY, effectivePrice(l.service)),
          Math.max(1, l.quantity),
        ),
      ),
    ),
    currency,
  );
  return needsPayment(terms) ? terms : null;
}
