import type Stripe from "stripe";
import { runBatch } from "../db/client";
import type { EventContext } from "./complete-checkout";
import {
  bookingPaymentsByIntent,
  insertLedgerRow,
  ledgerRefsOf,
  recordOutcome,
} from "./queries/ledger";
import { idempotencyKeys } from "./rules/checkout-keys";

/**
 * Refunds made outside the API (in the provider's dashboard) appear in the
 * ledger: each refund of the charge that no ledger row names yet is recorded
 * against the bookings its payment paid, up to what each still holds. Ours
 * are named already (their rows carry the refund's id); one of ours still
 * waiting for its answer makes the event wait too (answered 500, delivered
 * again), so no refund is counted twice.
 */
export async function recordDashboardRefunds(
  ctx: EventContext,
  charge: Stripe.Charge,
): Promise<boolean> {
  const intent =
    typeof charge.payment_intent === "string" ? charge.payment_intent : charge.payment_intent?.id;
  if (!intent) return false;
  const paidBy = await bookingPaymentsByIntent(ctx.db, intent);
  if (paidBy.length === 0) return false;
  const { refs, pendingRefunds } = await ledgerRefsOf(
    ctx.db,
    paidBy.map((p) => p.bookingId),
  );
  const unknown = (charge.refunds?.data ?? []).filter(
    (r) => r.status === "succeeded" && !refs.has(r.id),
  );
  if (unknown.length === 0) return false;
  if (pendingRefunds > 0)
    throw new Error(`charge ${charge.id}: a refund of ours awaits its answer`);
  const now = Date.now();
  const room = new Map(paidBy.map((p) => [p.bookingId, Math.max(0, p.paidOnline - p.refunded)]));
  const statements = unknown.flatMap((refund) => {
    let left = refund.amount;
    return paidBy.flatMap((p) => {
      const take = Math.min(left, room.get(p.bookingId) ?? 0);
      if (take <= 0) return [];
      left -= take;
      room.set(p.bookingId, (room.get(p.bookingId) ?? 0) - take);
      const row = {
        id: crypto.randomUUID(),
        workspaceId: p.workspaceId,
        bookingId: p.bookingId,
        kind: "refund" as const,
        amount: take,
        currency: p.terms.currency,
        status: "pending" as const,
        provider: "stripe" as const,
        providerRef: refund.id,
        idempotencyKey: idempotencyKeys.refund(p.bookingId, refund.id),
        failureReason: null,
        createdAt: now,
        updatedAt: now,
      };
      return [
        insertLedgerRow(ctx.db, row),
        ...recordOutcome(
          ctx.db,
          row,
          { status: "succeeded", providerRef: refund.id, failureReason: null },
          now,
        ),
      ];
    });
  });
  await runBatch(ctx.db, statements);
  return statements.length > 0;
}
