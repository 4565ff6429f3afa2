import type Stripe from "stripe";
import { releaseReservation } from "../calendar/holds/release";
import { runBatch } from "../db/client";
import { ApiError } from "../platform/errors";
import { log } from "../platform/log";
import { completeCheckout, type EventContext, refundInFull } from "./complete-checkout";
import { closeCheckout, type CheckoutRecord } from "./queries/checkouts";
import { eventRead } from "./queries/event-reads";
import { markEventHandled } from "./queries/provider-events";
import { outcomeOf, stripeClient } from "./providers/stripe";
import { recordDashboardRefunds } from "./dashboard-refunds";
import { recordFailedIntent } from "./failed-intent";
import { handleOrderSessionEvent } from "./order-checkout/events";

export type Handled = "handled" | "duplicate" | "ignored";

/**
 * Acts on one verified provider event, once per event id. Nothing in the
 * event's body is trusted beyond its type and object id: the session is
 * fetched back from the provider, and only what both say is acted on, so a
 * replayed, reordered or forged-but-signed event cannot book or expire the
 * wrong thing. `ctx.db` is the shard of `workspaceId`, the workspace the
 * event's object names (the webhook routed it there): the event is marked
 * handled there, and a checkout of any other workspace is not acted on.
 */
export async function handleProviderEvent(
  ctx: EventContext,
  event: Stripe.Event,
  workspaceId: string,
): Promise<Handled> {
  const sessionEvent = event.type.startsWith("checkout.session.");
  const read = await eventRead(
    ctx.db,
    event.id,
    sessionEvent ? (event.data.object as { id: string }).id : null,
  );
  if (read.handled) return "duplicate";
  let outcome: Handled = "ignored";
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
    case "checkout.session.expired": {
      const checkout = read.checkout;
      if (checkout && checkout.workspaceId !== workspaceId) {
        log("warn", "provider event ignored: its checkout is another workspace's", {
          event: event.id,
        });
        break;
      }
      if (!checkout) {
        // An order's checkout (a membership sold online) rather than a reservation's.
        const order = await handleOrderSessionEvent(ctx, event.data.object.id, workspaceId);
        if (order) {
          outcome = order;
          break;
        }
        if (event.type !== "checkout.session.expired") {
          outcome = (await refundOrphan(ctx, event.data.object.id)) ? "handled" : "ignored";
        }
        break;
      }
      const session = await fetchSession(ctx, event.data.object.id);
      if (!agrees(checkout, session)) {
        log("warn", "provider event ignored: the session fetched back does not agree", {
          event: event.id,
        });
        break;
      }
      if (session.status === "complete") {
        await completeCheckout(ctx, checkout, session);
        outcome = "handled";
      } else if (session.status === "expired") {
        await expireCheckout(ctx, checkout, session.id);
        outcome = "handled";
      }
      break;
    }
    case "payment_intent.payment_failed":
      outcome = (await recordFailedIntent(ctx, event.data.object.id)) ? "handled" : "ignored";
      break;
    case "charge.refunded":
      outcome = (await recordDashboardRefunds(ctx, event.data.object)) ? "handled" : "ignored";
      break;
    default:
      break;
  }
  await runBatch(ctx.db, [
    markEventHandled(ctx.db, { id: event.id, type: event.type, workspaceId }, Date.now()),
  ]);
  return outcome;
}

/**
 * A paid session of ours (its metadata names our workspace and reservation)
 * that no checkout row names: an attempt another request took over while
 * this one was at the provider. Nobody's booking is waiting for it, so the
 * money goes back in full; nothing paid is kept silently.
 */
async function refundOrphan(ctx: EventContext, sessionId: string): Promise<boolean> {
  const fetched = await outcomeOf(() =>
    stripeClient(ctx.stripe, ctx.env).checkout.sessions.retrieve(sessionId, {
      expand: ["payment_intent"],
    }),
  );
  // No such session at the provider: a made-up event, signed with our secret or not.
  if (fetched.status === "refused") return false;
  if (fetched.status === "unknown") throw new Error(`checkout session ${sessionId}: no answer`);
  const session = fetched.value;
  const workspaceId = session.metadata?.workspace_id;
  const reservationId = session.metadata?.reservation_uuid;
  const pi = typeof session.payment_intent === "object" ? session.payment_intent : null;
  if (!workspaceId || !reservationId || session.status !== "complete") return false;
  if (session.mode !== "payment" || !pi || (session.amount_total ?? 0) <= 0) return false;
  log("warn", "a paid session no checkout names is refunded in full", { reservationId });
  await refundInFull(ctx, { workspaceId, reservationId }, session.id, pi.id);
  return true;
}

export async function fetchSession(
  ctx: EventContext,
  id: string,
): Promise<Stripe.Checkout.Session> {
  const client = stripeClient(ctx.stripe, ctx.env);
  const fetched = await outcomeOf(() =>
    client.checkout.sessions.retrieve(id, { expand: ["payment_intent", "setup_intent"] }),
  );
  // No answer: the event is answered 500 and the provider delivers it again.
  if (fetched.status !== "done") throw new Error(`checkout session ${id}: ${fetched.status}`);
  return fetched.value;
}

/** The session the provider shows is the one this checkout made, for the amount it fixed. */
export function agrees(checkout: CheckoutRecord, session: Stripe.Checkout.Session): boolean {
  if (session.metadata?.workspace_id !== checkout.workspaceId) return false;
  if (session.metadata?.reservation_uuid !== checkout.reservationId) return false;
  if (session.status !== "complete") return session.status === "expired";
  if (session.mode === "setup") {
    const si = session.setup_intent;
    return typeof si === "object" && si !== null && si.status === "succeeded";
  }
  return (
    session.payment_status === "paid" &&
    session.amount_total === checkout.terms.amount_due_now &&
    session.currency?.toLowerCase() === checkout.terms.currency.toLowerCase()
  );
}

/** The page's time ran out: the checkout is over, and so is the hold it kept. */
export async function expireCheckout(
  ctx: EventContext,
  checkout: CheckoutRecord,
  sessionId: string,
) {
  const [closed] = await runBatch(ctx.db, [
    closeCheckout(ctx.db, sessionId, { status: "expired" }),
  ]);
  if (!Array.isArray(closed) || closed.length === 0) return;
  try {
    await releaseReservation(
      {
        scope: { db: ctx.db, workspaceId: checkout.workspaceId },
        env: ctx.env,
        defer: ctx.defer,
      },
      checkout.reservationId,
    );
  } catch (error) {
    // Already used, released or past its expiry: nothing is held any more.
    if (!(error instanceof ApiError && error.code === "not_found")) throw error;
  }
}
