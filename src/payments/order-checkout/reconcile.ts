import type { Database } from "../../db/client";
import { runBatch } from "../../db/client";
import { runAlongside } from "../../platform/defer";
import type { Env } from "../../platform/env";
import { log } from "../../platform/log";
import type { EventContext } from "../complete-checkout";
import { outcomeOf, stripeClient, type StripeSettings } from "../providers/stripe";
import { closeOrderCheckout, overdueOrderCheckouts } from "../queries/order-checkouts";
import { idempotencyKeys } from "../rules/checkout-keys";
import { completeOrderCheckout } from "./complete";
import { agrees, fetchOrderSession } from "./events";

/**
 * Open order checkouts whose page should have ended and whose event never
 * came: the session is fetched from the provider and acted on as its event
 * would have been (paid: the order is paid, or the money goes back; expired:
 * closed). One still open there is expired there first. Nothing paid is kept
 * silently. Answers how many were closed.
 */
export async function reconcileOrderCheckouts(
  env: Env,
  db: Database,
  stripe: StripeSettings,
  before: number,
  limit: number,
  workspaceId: string,
): Promise<number> {
  const ctx: EventContext = { env, db, defer: runAlongside, stripe };
  const client = stripeClient(stripe, env);
  let closed = 0;
  for (const checkout of await overdueOrderCheckouts(db, before, limit, workspaceId)) {
    const sessionId = checkout.sessionId;
    if (!sessionId) continue;
    try {
      let session = await fetchOrderSession(ctx, sessionId);
      if (session.status === "open") {
        const expired = await outcomeOf(() =>
          client.checkout.sessions.expire(sessionId, undefined, {
            idempotencyKey: idempotencyKeys.expire(sessionId),
          }),
        );
        // Refused: it was paid or expired just now; the fetch below shows which.
        if (expired.status === "unknown") continue;
        session = await fetchOrderSession(ctx, sessionId);
      }
      if (!agrees(checkout, session)) {
        log("error", "overdue order checkout: the provider's session does not agree; closed", {
          order: checkout.orderId,
        });
        await runBatch(db, [
          closeOrderCheckout(db, sessionId, { status: "expired", failure: "provider_disagrees" }),
        ]);
        continue;
      }
      if (session.status === "complete") await completeOrderCheckout(ctx, checkout, session);
      else await runBatch(db, [closeOrderCheckout(db, sessionId, { status: "expired" })]);
      closed += 1;
    } catch (error) {
      log("error", "overdue order checkout reconcile failed", { error, order: checkout.orderId });
    }
  }
  return closed;
}
