/**
 * The Idempotency-Key of each provider call, derived from what the call is
 * for: a retry, a worker that died between the provider's answer and our
 * write, or two requests at once send the same key, and the provider acts once.
 */
export const idempotencyKeys = {
  customer: (reservationId: string, attempt: number) => `customer:${reservationId}:${attempt}`,
  checkout: (reservationId: string, attempt: number) => `checkout:${reservationId}:${attempt}`,
  expire: (sessionId: string) => `expire:${sessionId}`,
  refundLostHold: (sessionId: string) => `refund:${sessionId}:hold-lost`,
  paid: (sessionId: string, bookingId: string) => `checkout:${sessionId}:${bookingId}`,
  refund: (bookingId: string, reason: string) => `refund:${bookingId}:${reason}`,
  fee: (bookingId: string, kind: "late_cancel_fee" | "no_show_fee") => `fee:${bookingId}:${kind}`,
};

/** A hosted checkout lasts 31 minutes: the provider's shortest is 30, and the request takes time. */
export const CHECKOUT_SECONDS = 31 * 60;

/** A reservation is held this long past its checkout page's end, for a payment's late event. */
export const PAID_LATE_GRACE_MS = 10 * 60_000;

/** Tries at making a checkout's provider session before the reservation must be made again. */
export const MAX_CHECKOUT_ATTEMPTS = 5;
