import type Stripe from "stripe";
import { createBookings } from "../bookings/create";
import { clientFields } from "../bookings/http/bookings/client-fields";
import { manageUrl } from "../bookings/manage-link";
import { heldItems } from "../calendar/held-items";
import type { Database } from "../db/client";
import { runBatch } from "../db/client";
import { guard } from "../db/guards";
import type { Scope } from "../db/scope";
import type { Statement } from "../db/statement";
import type { BookingMade } from "../http/deps";
import { checkoutContext } from "./queries/event-reads";
import type { Defer } from "../platform/defer";
import type { Env } from "../platform/env";
import { ApiError, InvalidError, notFound } from "../platform/errors";
import { failpoint } from "../platform/failpoints";
import { log } from "../platform/log";
import { publicOrigin } from "../platform/public-origin";
import { CustomerFieldsSchema } from "./checkout-customer";
import { checkoutStillOpen, closeCheckout, type CheckoutRecord } from "./queries/checkouts";
import { insertBookingPayment, insertLedgerRow, recordOutcome } from "./queries/ledger";
import { pricedServices } from "./queries/priced-services";
import { outcomeOf, stripeClient, type StripeSettings } from "./providers/stripe";
import { bookingShares } from "./rules/booking-shares";
import { idempotencyKeys } from "./rules/checkout-keys";

export interface EventContext {
  env: Env;
  db: Database;
  defer: Defer;
  stripe: StripeSettings;
}

const idOf = (v: string | { id: string } | null | undefined) =>
  v === null || v === undefined ? null : typeof v === "string" ? v : v.id;

/**
 * A paid (or card-saved) checkout, as the provider shows it when asked back:
 * the reservation becomes the booking exactly as POST /bookings with its
 * reservation_uuid would make it, with each booking's payment and ledger rows
 * in the booking's own batch. A hold lost meanwhile (expired, taken by staff)
 * makes no booking, and the money goes back in full at once.
 */
export async function completeCheckout(
  ctx: EventContext,
  checkout: CheckoutRecord,
  session: Stripe.Checkout.Session,
): Promise<"booked" | "refunded" | "already"> {
  const pi = typeof session.payment_intent === "object" ? session.payment_intent : null;
  const paid = session.mode === "payment" ? (session.amount_total ?? 0) : 0;
  if (checkout.status === "complete") {
    // A redelivery after the refund's answer was lost: the same call, the same key, acts once.
    if (checkout.failure && pi && paid > 0) await refundInFull(ctx, checkout, session.id, pi.id);
    return "already";
  }
  const { workspace, reservation } = await checkoutContext(
    ctx.db,
    checkout.workspaceId,
    checkout.reservationId,
  );
  if (!workspace) throw notFound("Workspace");
  const scope: Scope = { db: ctx.db, workspaceId: workspace.id };
  const si = typeof session.setup_intent === "object" ? session.setup_intent : null;
  const sessionId = session.id;
  const items = reservation ? heldItems(reservation) : [];
  const services = new Map(
    (
      await pricedServices(
        scope,
        items.flatMap((i) => i.services.map((s) => s.service_uuid)),
      )
    ).map((s) => [s.id, s]),
  );
  const customer = CustomerFieldsSchema.parse(checkout.customer);
  const origin = publicOrigin(ctx.env);
  const paymentRows = (bookings: readonly BookingMade[]): Statement[] => {
    const now = Date.now();
    const shares = bookingShares(bookings, services, paid, checkout.terms);
    return [
      guard(scope, checkoutStillOpen(sessionId)),
      closeCheckout(ctx.db, sessionId, { status: "complete", bookingId: bookings[0]?.id ?? null }),
      ...shares.flatMap((share) => {
        const row = {
          id: crypto.randomUUID(),
          workspaceId: workspace.id,
          bookingId: share.bookingId,
          // Each booking's row is named by its own policy (a cart pays under its strictest mode).
          kind:
            session.mode === "setup" || share.paid === 0
              ? ("card_saved" as const)
              : share.terms.mode === "prepay"
                ? ("prepayment" as const)
                : ("deposit" as const),
          amount: session.mode === "setup" ? 0 : share.paid,
          currency: checkout.terms.currency,
          status: "pending" as const,
          provider: "stripe" as const,
          providerRef: idOf(pi) ?? idOf(si),
          idempotencyKey: idempotencyKeys.paid(sessionId, share.bookingId),
          failureReason: null,
          createdAt: now,
          updatedAt: now,
        };
        return [
          insertBookingPayment(ctx.db, {
            bookingId: share.bookingId,
            workspaceId: workspace.id,
            reservationId: checkout.reservationId,
            terms: share.terms,
            policy: share.policy,
            providerCustomer: idOf(session.customer),
            paymentMethod: idOf(pi?.payment_method) ?? idOf(si?.payment_method),
            paymentIntent: idOf(pi),
            createdAt: now,
          }),
          insertLedgerRow(ctx.db, row),
          ...recordOutcome(
            ctx.db,
            row,
            { status: "succeeded", providerRef: row.providerRef, failureReason: null },
            now,
          ),
        ];
      }),
    ];
  };
  try {
    if (!reservation) throw new ApiError("reservation_expired", "The reservation is gone.");
    failpoint("payments.webhook.before_booking");
    await createBookings(
      {
        scope,
        env: ctx.env,
        render: { currency: workspace.currency, locale: workspace.locale, origin },
        defer: ctx.defer,
        staff: false,
        limitCustomerChange: async () => undefined,
        manageUrl: (b) => manageUrl(ctx.env, origin, b) ?? "",
        messageVisitor: reservation.holder ?? undefined,
        reservationUsed: (_scope, _id, _first, _now, bookings) => paymentRows(bookings),
      },
      {
        country: workspace.country,
        locationId: reservation.locationId,
        items: items.map((i) => ({
          start: Date.parse(i.datetime_start),
          services: i.services.map((s) => ({
            serviceId: s.service_uuid,
            stafferId: s.staffer_uuid,
            quantity: s.quantity ?? 1,
          })),
        })),
        ...clientFields(customer),
        source: customer.source ?? "widget",
        reservationId: reservation.id,
        caller: "customer",
        visitor: reservation.holder ?? undefined,
        paymentSettled: true,
      },
    );
    return "booked";
  } catch (error) {
    if (!(error instanceof ApiError || error instanceof InvalidError)) throw error;
    // Another delivery of this event booked it: nothing to give back.
    const [closed] = await runBatch(ctx.db, [
      closeCheckout(ctx.db, sessionId, {
        status: "complete",
        bookingId: null,
        failure: error.code === "validation_failed" ? "invalid_customer" : "hold_lost",
      }),
    ]);
    if (!Array.isArray(closed) || closed.length === 0) return "already";
    log("warn", "paid checkout could not be booked; refunding in full", {
      reservation: checkout.reservationId,
      code: error.code,
    });
    if (pi && paid > 0) await refundInFull(ctx, checkout, sessionId, pi.id);
    return "refunded";
  }
}

/**
 * Gives back everything a checkout took when it could make no booking. Without
 * an answer it throws: the webhook answers 500, the provider delivers the
 * event again, and the same call with the same key refunds once.
 */
export async function refundInFull(
  ctx: EventContext,
  checkout: Pick<CheckoutRecord, "workspaceId" | "reservationId">,
  sessionId: string,
  paymentIntent: string,
) {
  const client = stripeClient(ctx.stripe, ctx.env);
  const refunded = await outcomeOf(() =>
    client.refunds.create(
      {
        payment_intent: paymentIntent,
        metadata: { workspace_id: checkout.workspaceId, reservation_uuid: checkout.reservationId },
      },
      { idempotencyKey: idempotencyKeys.refundLostHold(sessionId) },
    ),
  );
  // Refused: already refunded in full (in the dashboard, or by an earlier try). Nothing left to give.
  if (refunded.status === "unknown") throw new Error(`refund of ${sessionId}: no answer`);
}
