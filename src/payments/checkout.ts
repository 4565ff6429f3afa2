import type { z } from "@hono/zod-openapi";
import { extendReservation, holdLost } from "../calendar/holds/extend";
import { isLive } from "../calendar/queries/reservations";
import { heldItems } from "../calendar/held-items";
import type { CustomerFields } from "../bookings/http/bookings/schema";
import { run } from "../db/reads";
import { runBatch } from "../db/client";
import { applyBookingForm, FORM_FIELDS } from "../tenancy/rules/booking-form";
import type { UseCaseDeps } from "../http/deps";
import { configOf } from "../platform/config";
import { toIso } from "../platform/clock";
import { normalisePhone } from "../platform/rules/phone";
import { ApiError, InvalidError, notFound } from "../platform/errors";
import { failpoint } from "../platform/failpoints";
import { checkoutRead } from "./queries/checkout-read";
import {
  checkoutAttemptOpen,
  checkoutOpened,
  selectCheckout,
  updateCheckoutCustomer,
  upsertCheckoutAttempt,
} from "./queries/checkouts";
import { outcomeOf, stripeClient } from "./providers/stripe";
import {
  CHECKOUT_SECONDS,
  idempotencyKeys,
  MAX_CHECKOUT_ATTEMPTS,
  PAID_LATE_GRACE_MS,
} from "./rules/checkout-keys";
import { guard } from "../db/guards";
import { checkoutSessionParams } from "./rules/session-params";

export type CheckoutCustomer = z.infer<z.ZodObject<typeof CustomerFields>>;

export interface CheckoutRequest {
  reservationId: string;
  country: string;
  customer: CheckoutCustomer;
  successUrl: string;
  cancelUrl: string;
}

export const paymentsUnavailable = (why: string) =>
  new ApiError("payments_unavailable", `Online payment is not available right now: ${why}`);

/**
 * Starts (or shows again) the hosted checkout of a reservation whose services
 * take money online: the customer's fields are checked as a booking's would
 * be, the provider makes a session for the amount the reservation fixed, and
 * the reservation is held until that session expires. Nothing is charged
 * here; the provider's event makes the booking.
 */
export async function startCheckout(deps: UseCaseDeps, req: CheckoutRequest) {
  const stripe = configOf(deps.env).stripe;
  const { scope } = deps;
  const loaded = await run(scope.db, checkoutRead(scope, req.reservationId));
  const { reservation, checkout } = loaded;
  if (!reservation) throw notFound("Reservation");
  const now = Date.now();
  if (checkout?.status === "complete" || !isLive(reservation, now)) throw holdLost();
  const terms = reservation.payment;
  if (!terms) {
    throw new InvalidError([
      {
        about: { is: "reservation" },
        messages: ["Nothing to pay for this reservation: book it with POST /bookings."],
      },
    ]);
  }
  customerProblems(loaded.form, req);
  if (!stripe) throw paymentsUnavailable("payments are not configured.");

  const stored = {
    customer: req.customer as Record<string, unknown>,
    successUrl: req.successUrl,
    cancelUrl: req.cancelUrl,
    updatedAt: now,
  };
  // The widget's "pay" again (back from the provider's page): the same session, the newest fields.
  if (checkout?.status === "open" && checkout.checkoutUrl && checkout.expiresAt > now) {
    await runBatch(scope.db, [updateCheckoutCustomer(scope, req.reservationId, stored)]);
    return { checkout_url: checkout.checkoutUrl, expires_at: toIso(checkout.expiresAt) };
  }

  const attempt = (checkout?.attempt ?? 0) + 1;
  if (attempt > MAX_CHECKOUT_ATTEMPTS) throw holdLost();
  const expiresAt = Math.floor(now / 1000) * 1000 + CHECKOUT_SECONDS * 1000;
  // One attempt per writer: a request racing this one for the same reservation is refused.
  const claimed = await runBatch(scope.db, [
    upsertCheckoutAttempt(scope.db, checkout?.attempt ?? null, {
      reservationId: req.reservationId,
      workspaceId: scope.workspaceId,
      attempt,
      status: "creating",
      terms,
      ...stored,
      expiresAt,
      createdAt: now,
    }),
  ]);
  if (rowsOf(claimed[0]).length === 0) {
    throw new ApiError("conflict", "A checkout of this reservation is being started; try again.");
  }

  failpoint("payments.checkout.before_provider");
  const client = stripeClient(stripe, deps.env);
  const metadata = { workspace_id: scope.workspaceId, reservation_uuid: req.reservationId };
  const customer = await outcomeOf(() =>
    client.customers.create(
      { metadata },
      { idempotencyKey: idempotencyKeys.customer(req.reservationId, attempt) },
    ),
  );
  if (customer.status !== "done") throw paymentsUnavailable("the payment provider did not answer.");
  const session = await outcomeOf(() =>
    client.checkout.sessions.create(
      checkoutSessionParams({
        terms,
        customer: customer.value.id,
        reservationId: req.reservationId,
        metadata,
        successUrl: req.successUrl,
        cancelUrl: req.cancelUrl,
        expiresAt,
        items: heldItems(reservation),
      }),
      { idempotencyKey: idempotencyKeys.checkout(req.reservationId, attempt) },
    ),
  );
  if (session.status !== "done" || !session.value.url) {
    throw paymentsUnavailable("the payment provider did not answer.");
  }
  failpoint("payments.checkout.after_provider");
  const sessionExpires = (session.value.expires_at ?? expiresAt / 1000) * 1000;
  try {
    // Held a little past the page's end: a payment made at its last second, whose event comes
    // late, still books. An expired page's event ends the hold at once.
    const holdUntil = sessionExpires + PAID_LATE_GRACE_MS;
    await extendReservation(deps, reservation, loaded.entries, holdUntil, () => [
      // Still this request's attempt: a later one that took over makes this batch fail.
      guard(scope, checkoutAttemptOpen(req.reservationId, attempt)),
      checkoutOpened(scope, req.reservationId, attempt, {
        sessionId: session.value.id,
        checkoutUrl: session.value.url,
        expiresAt: sessionExpires,
        providerCustomer: customer.value.id,
      }),
    ]);
  } catch (error) {
    // The time went meanwhile, or a later attempt took over: nobody may pay on this page.
    deps.defer(() =>
      outcomeOf(() =>
        client.checkout.sessions.expire(session.value.id, undefined, {
          idempotencyKey: idempotencyKeys.expire(session.value.id),
        }),
      ),
    );
    throw await supersededOr(deps, req.reservationId, attempt, error);
  }
  return { checkout_url: session.value.url, expires_at: toIso(sessionExpires) };
}

const rowsOf = (result: unknown): unknown[] => (Array.isArray(result) ? result : []);

/**
 * A request that waited on the provider while another took the checkout over
 * (a retry from a second tab) finds the hold renamed under it: that is not a
 * lost reservation but the other request's page, so it is a conflict to retry
 * (which answers that page), not `reservation_expired`.
 */
async function supersededOr(
  deps: UseCaseDeps,
  reservationId: string,
  attempt: number,
  error: unknown,
): Promise<unknown> {
  if (!(error instanceof ApiError && error.code === "reservation_expired")) return error;
  const [now] = await selectCheckout(deps.scope, reservationId);
  if (!now || now.attempt === attempt) return error;
  return new ApiError("conflict", "A checkout of this reservation is being started; try again.");
}

/** The customer's fields, checked now as the booking will check them (422 as POST /bookings). */
function customerProblems(
  form: Parameters<typeof applyBookingForm>[0],
  req: CheckoutRequest,
): void {
  const c = req.customer;
  const problems = [];
  if (!normalisePhone(c.customer_phone, req.country)) {
    problems.push({ about: { is: "phone" as const }, messages: ["Must be a valid phone number."] });
  }
  const applied = applyBookingForm(form, {
    customer_email: c.customer_email,
    customer_last_name: c.customer_last_name,
    customer_middle_name: c.customer_middle_name,
    booking_comment: c.booking_comment,
  });
  for (const field of FORM_FIELDS) {
    const messages = applied.errors[field];
    if (messages) problems.push({ about: { is: "form" as const, field }, messages });
  }
  if (problems.length > 0) throw new InvalidError(problems);
}
