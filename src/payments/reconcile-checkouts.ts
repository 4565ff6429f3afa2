import type { Database } from "../db/client";
import type { Env } from "../platform/env";
import { runAlongside } from "../platform/defer";
import { log } from "../platform/log";
import { completeCheckout, type EventContext } from "./complete-checkout";
import { agrees, expireCheckout, fetchSession } from "./provider-events";
import { closeCheckout, overdueCheckouts } from "./queries/checkouts";
import { runBatch } from "../db/client";
import { outcomeOf, stripeClient, type StripeSettings } from "./providers/stripe";
import { idempotencyKeys } from "./rules/checkout-keys";

/** Past its expiry by this much, an open checkout's event is late enough to go and ask. */
export const CHECKOUT_GRACE_MS = 2 * 60_000;

/**
 * Open checkouts whose session should have ended and whose event never came
 * (lost, or refused while the Worker was down): the session is fetched from
 * the provider and acted on as its event would have been. A session paid
 * meanwhile becomes its booking, or is refunded in full when its hold is
 * gone; one still open there is expired there first. Nothing paid is kept
 * silently.
 */
export async function reconcileCheckouts(
  env: Env,
  db: Database,
  stripe: StripeSettings,
  now: number,
  limit: number,
  workspaceId?: string,
): Promise<number> {
  const ctx: EventContext = { env, db, defer: runAlongside, stripe };
  const client = stripeClient(stripe, env);
  let closed = 0;
  for (const checkout of await overdueCheckouts(db, now - CHECKOUT_GRACE_MS, limit, workspaceId)) {
    const sessionId = checkout.sessionId;
    if (!sessionId) continue;
    try {
      let session = await fetchSession(ctx, sessionId);
      if (session.status === "open") {
        const expired = await outcomeOf(() =>
          client.checkout.sessions.expire(sessionId, undefined, {
            idempotencyKey: idempotencyKeys.expire(sessionId),
          }),
        );
        // Refused: it was paid or expired just now; the fetch below shows which.
        if (expired.status === "unknown") continue;
        session = await fetchSession(ctx, sessionId);
      }
      if (!agrees(checkout, session)) {
        // Never acted on, never asked about again (it would hold its place in every run):
        // closed with why, and said where an operator looks.
        log("error", "overdue checkout: the provider's session does not agree; closed", {
          reservation: checkout.reservationId,
        });
        await runBatch(db, [
          closeCheckout(db, sessionId, { status: "expired", failure: "provider_disagrees" }),
        ]);
        continue;
      }
      if (session.status === "complete") await completeCheckout(ctx, checkout, session);
      else if (session.status === "expired") await expireCheckout(ctx, checkout, sessionId);
      closed += 1;
    } catch (error) {
      log("error", "overdue checkout reconcile failed", {
        error,
        reservation: checkout.reservationId,
      });
    }
  }
  return closed;
}
