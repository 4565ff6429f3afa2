import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { workspaces } from "./workspaces";

/**
 * A POS order paid on the provider's hosted page (a membership's first
 * period, whose card is saved for the renewals). One row per attempt: an
 * expired page is followed by a new attempt, whose number keys its provider
 * calls. `failure` says why a paid session did not pay the order (the money
 * went back). The attempt that paid the order keeps its payment intent; a
 * refund of the order gives that money back at the provider (`refund_*`:
 * pending from the refund's batch until the provider answers, repeated by the
 * payments reconcile under the same Idempotency-Key when the answer is lost).
 */
export const orderCheckouts = sqliteTable(
  "order_checkouts",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    orderId: text("order_id").notNull(),
    attempt: integer("attempt").notNull(),
    status: text("status", { enum: ["creating", "open", "complete", "expired"] }).notNull(),
    sessionId: text("session_id"),
    checkoutUrl: text("checkout_url"),
    providerCustomer: text("provider_customer"),
    /** What the session asks: the order's amount due when it was made. */
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    expiresAt: integer("expires_at").notNull(),
    failure: text("failure"),
    paymentIntent: text("payment_intent"),
    refundStatus: text("refund_status", { enum: ["pending", "succeeded", "failed"] }),
    refundAmount: integer("refund_amount"),
    /** The provider's refund id, once it answered. */
    refundRef: text("refund_ref"),
    refundFailure: text("refund_failure"),
    refundRequestedAt: integer("refund_requested_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("order_checkouts_attempt_uq").on(t.orderId, t.attempt),
    uniqueIndex("order_checkouts_session_uq").on(t.sessionId),
    // The payments reconcile: open checkouts past their expiry, pending refunds whose answer was lost.
    index("order_checkouts_status_expires_idx").on(t.status, t.expiresAt),
    index("order_checkouts_refund_idx").on(t.refundStatus, t.refundRequestedAt),
  ],
);
