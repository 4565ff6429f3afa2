import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { jsonText } from "./json-text";
import { workspaces } from "./workspaces";

/** A money amount of a policy: a percent of the service's price or a fixed amount (minor units). */
const StoredMoneySchema = z.union([
  z.object({ percent: z.number() }),
  z.object({ amount: z.number() }),
]);

/** A service's payment policy as stored (the API's shape; `mode: "none"` is stored as null). */
export const StoredPaymentPolicySchema = z.object({
  mode: z.enum(["none", "card_on_file", "deposit", "prepay"]),
  deposit: StoredMoneySchema.optional(),
  late_cancel: z.object({ window_minutes: z.number(), fee: StoredMoneySchema }).optional(),
  no_show_fee: StoredMoneySchema.optional(),
});

const StoredAmountSchema = z.object({ amount: z.number() });

/** A booking's copy of its policy, every amount resolved against its prices. */
export const StoredResolvedPolicySchema = z.object({
  mode: z.enum(["none", "card_on_file", "deposit", "prepay"]),
  deposit: StoredAmountSchema.optional(),
  late_cancel: z.object({ window_minutes: z.number(), fee: StoredAmountSchema }).optional(),
  no_show_fee: StoredAmountSchema.optional(),
});

/**
 * What one booking (or a whole reservation) owes under the policies of its
 * services, in minor units: copied when it is made, so later changes of a
 * service's policy never touch it.
 */
export const StoredPaymentTermsSchema = z.object({
  mode: z.enum(["none", "card_on_file", "deposit", "prepay"]),
  amount_due_now: z.number(),
  currency: z.string(),
  late_cancel: z.object({ window_minutes: z.number(), fee: z.number() }).nullable(),
  no_show_fee: z.number().nullable(),
});

/** The customer fields of a booking, kept with a checkout until the provider says it is paid. */
export const StoredCheckoutCustomerSchema = z.record(z.string(), z.unknown());

/**
 * A hosted checkout of a reservation: the provider's session, the customer's
 * fields for the booking it becomes, and where it stands. One open session per
 * reservation at a time (`attempt` numbers them, and keys their provider calls).
 */
export const paymentCheckouts = sqliteTable(
  "payment_checkouts",
  {
    reservationId: text("reservation_id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    attempt: integer("attempt").notNull().default(1),
    sessionId: text("session_id"),
    providerCustomer: text("provider_customer"),
    checkoutUrl: text("checkout_url"),
    status: text("status", { enum: ["creating", "open", "complete", "expired"] }).notNull(),
    terms: jsonText("terms", "payment_checkouts", StoredPaymentTermsSchema).notNull(),
    customer: jsonText("customer", "payment_checkouts", StoredCheckoutCustomerSchema).notNull(),
    successUrl: text("success_url").notNull(),
    cancelUrl: text("cancel_url").notNull(),
    expiresAt: integer("expires_at").notNull(),
    /** The booking it became (the first, for a cart). */
    bookingId: text("booking_id"),
    /** Why a paid checkout made no booking (the hold was lost): the money went back. */
    failure: text("failure"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("payment_checkouts_session_idx").on(t.sessionId),
    // The reconcile loop finds sessions past their expiry that no event closed.
    index("payment_checkouts_open_idx").on(t.status, t.expiresAt),
  ],
);

/**
 * A booking's payment: the terms copied when it was made, the saved card the
 * provider keeps for later fees, and when a late cancel starts to cost.
 */
export const bookingPayments = sqliteTable("booking_payments", {
  bookingId: text("booking_id").primaryKey(),
  workspaceId: text("workspace_id")
    .notNull()
    .references(() => workspaces.id),
  reservationId: text("reservation_id"),
  terms: jsonText("terms", "booking_payments", StoredPaymentTermsSchema).notNull(),
  policy: jsonText("policy", "booking_payments", StoredResolvedPolicySchema).notNull(),
  providerCustomer: text("provider_customer"),
  paymentMethod: text("payment_method"),
  paymentIntent: text("payment_intent"),
  /** Kept equal to the ledger's succeeded payments and refunds, for the Booking's `payment`. */
  paidOnline: integer("paid_online").notNull().default(0),
  refunded: integer("refunded").notNull().default(0),
  /** When a cancel's refund or fee was decided (once per booking, whoever asks). */
  settledAt: integer("settled_at"),
  /** What the cancel kept of the money paid online as its fee (set with `settledAt`): a fee's revenue. */
  feeKept: integer("fee_kept"),
  createdAt: integer("created_at").notNull(),
});

/**
 * The ledger: every movement of a booking's money through the provider. A row
 * is written `pending` before the provider is called, under the Idempotency-Key
 * it is called with, so a call whose answer was lost is found and finished
 * with the same key, never made twice.
 */
export const payments = sqliteTable(
  "payments",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    bookingId: text("booking_id").notNull(),
    kind: text("kind", {
      enum: ["deposit", "prepayment", "card_saved", "late_cancel_fee", "no_show_fee", "refund"],
    }).notNull(),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    provider: text("provider", { enum: ["stripe"] }).notNull(),
    providerRef: text("provider_ref"),
    idempotencyKey: text("idempotency_key").notNull(),
    failureReason: text("failure_reason"),
    /** Whether the money is booked on the location's online account yet. */
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("payments_key_idx").on(t.workspaceId, t.idempotencyKey),
    index("payments_booking_idx").on(t.workspaceId, t.bookingId, t.createdAt),
    // The reconcile loop finds calls whose answer never reached the ledger.
    index("payments_pending_idx").on(t.status, t.updatedAt),
    index("payments_ref_idx").on(t.providerRef),
  ],
);

/** Provider events already handled: each event id once, however often it is delivered. */
export const paymentProviderEvents = sqliteTable(
  "payment_provider_events",
  {
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    receivedAt: integer("received_at").notNull(),
    /** The workspace the event is about: the row lives on its shard and moves with it. */
    workspaceId: text("workspace_id"),
  },
  (t) => [index("payment_provider_events_workspace_idx").on(t.workspaceId)],
);
