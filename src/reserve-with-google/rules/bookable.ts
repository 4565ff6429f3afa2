import type { PricedService } from "../../catalogue/rules/service-payment";
import { visitPaymentTerms } from "../../catalogue/rules/service-payment";

/** A service as Google's offer of it needs it: shown online, and its payment terms. */
export interface GoogleService extends PricedService {
  live: boolean;
  liveInWidget: boolean;
}

/**
 * Whether Google may offer and book the service: a customer could book it
 * online (live, shown in the widget) straight away. A service that takes
 * money or a card online before booking (any payment policy but `none`)
 * is refused to a customer with 402 payment_required (src/bookings/payment-gate.ts),
 * and Google has no checkout of ours to send the customer to: such services
 * are left out of the feeds, and the booking server answers them
 * booking_failure PAYMENT_ERROR. The same terms the gate computes decide
 * (one seat: more seats only add amounts, never change the mode).
 */
export const bookableThroughGoogle = (service: GoogleService): boolean =>
  service.live &&
  service.liveInWidget &&
  // The currency only labels the terms; whether there are any does not depend on it.
  visitPaymentTerms([{ service, quantity: 1 }], "XXX") === null;
