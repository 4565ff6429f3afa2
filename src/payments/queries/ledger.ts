import { and, asc, eq, lt, sql } from "drizzle-orm";
import { bookingPayments, payments } from "../../db/schema";
import type { Database } from "../../db/client";
import { type Scope, whereIn } from "../../db/scope";
import { listPage } from "../../db/queries/list";
import { idIn } from "../../db/bounded";
import type { PageRequest } from "../../platform/pagination";
import type { Condition, Statement } from "../../db/statement";
import {
  onlineAccountMove,
  type Outcome,
  outcomeEvent,
  outcomeEventInsert,
  stillPending,
} from "./outcome-moves";

export type LedgerRecord = typeof payments.$inferSelect;
export type NewLedgerRow = typeof payments.$inferInsert;
export type BookingPaymentRecord = typeof bookingPayments.$inferSelect;
export type NewBookingPayment = typeof bookingPayments.$inferInsert;

/**
 * A ledger row before its provider call, under the call's Idempotency-Key:
 * a second writer of the same key (a retry, a racing request) adds nothing.
 */
export const insertLedgerRow = (db: Database, row: NewLedgerRow) =>
  db.insert(payments).values(row).onConflictDoNothing();

export async function ledgerRowByKey(scope: Scope, key: string) {
  const [row] = await scope.db
    .select()
    .from(payments)
    .where(whereIn(scope, payments, eq(payments.idempotencyKey, key)));
  return row ?? null;
}

/** Kinds whose success is money the customer paid (a saved card moves none). */
const MONEY_IN = new Set<LedgerRecord["kind"]>([
  "deposit",
  "prepayment",
  "late_cancel_fee",
  "no_show_fee",
]);

/** Kinds whose success the customer is told of (`payment-fee-charged`). */
export const isFeeKind = (kind: LedgerRecord["kind"]): kind is "late_cancel_fee" | "no_show_fee" =>
  kind === "late_cancel_fee" || kind === "no_show_fee";

/**
 * The customer's `payment-fee-charged` message rows, written only while the
 * given condition (the ledger row still pending) holds: see `fee-message.ts`.
 */
export type FeeMessages = (when: Condition) => Statement[];

/**
 * What the provider answered, written once: only a pending row changes, and
 * everything that follows from it goes in the same batch, each statement
 * guarded by the row still being pending (so before the row's own update): the
 * booking's totals, the location's online account (credited for money in,
 * debited for a refund, with its transaction row), the `payment-succeeded`,
 * `payment-refunded` or `payment-failed` event, and for a fee that succeeded
 * the customer's message (`told`, when the caller read what it needs). A
 * replayed answer (a retry, a reconcile) writes none of it again. A row
 * inserted pending earlier in the same batch (a checkout's) is recorded the same way.
 */
export function recordOutcome(
  db: Database,
  row: Pick<LedgerRecord, "id" | "bookingId" | "workspaceId" | "kind" | "amount">,
  outcome: Outcome,
  now: number,
  told?: FeeMessages,
): [Statement, ...Statement[]] {
  const pending = and(eq(payments.id, row.id), eq(payments.status, "pending"));
  const moved =
    outcome.status === "succeeded" &&
    row.amount > 0 &&
    (row.kind === "refund" || MONEY_IN.has(row.kind));
  const moves: Statement[] = moved
    ? [
        db
          .update(bookingPayments)
          .set(
            row.kind === "refund"
              ? { refunded: sql`${bookingPayments.refunded} + ${row.amount}` }
              : { paidOnline: sql`${bookingPayments.paidOnline} + ${row.amount}` },
          )
          .where(
            and(
              eq(bookingPayments.bookingId, row.bookingId),
              sql`exists (select 1 from ${payments} where ${pending})`,
            ),
          ),
        ...onlineAccountMove(db, row, row.kind === "refund" ? -row.amount : row.amount, now),
      ]
    : [];
  const tell =
    told && outcome.status === "succeeded" && isFeeKind(row.kind) ? told(stillPending(row.id)) : [];
  // The event first: a batch always has it, and the row's own update comes last.
  return [
    outcomeEventInsert(db, row, outcomeEvent(row.kind, outcome.status), outcome, now),
    ...moves,
    ...tell,
    db
      .update(payments)
      .set({ ...outcome, updatedAt: now })
      .where(pending)
      .returning({ id: payments.id }),
  ];
}

/** A booking's ledger, oldest first (the booking's money in the order it moved). */
export const listLedger = (scope: Scope, bookingId: string, page: PageRequest) =>
  listPage(
    scope.db,
    payments,
    whereIn(scope, payments, eq(payments.bookingId, bookingId)),
    [asc(payments.createdAt), asc(payments.id)],
    page,
  );

/** Calls whose answer never reached the ledger (the worker stopped between the call and the write). */
export const stalePending = (db: Database, before: number, limit: number) =>
  db
    .select()
    .from(payments)
    .where(and(eq(payments.status, "pending"), lt(payments.updatedAt, before)))
    .orderBy(asc(payments.updatedAt))
    .limit(limit);

/** Pending rows about to be tried again go to the back of the reconcile's line, all at once. */
export const touchPending = (db: Database, ids: readonly string[], now: number) =>
  db
    .update(payments)
    .set({ updatedAt: now })
    .where(and(idIn(payments.id, ids), eq(payments.status, "pending")));

export const insertBookingPayment = (db: Database, row: NewBookingPayment) =>
  db.insert(bookingPayments).values(row).onConflictDoNothing();

export const selectBookingPayment = (scope: Scope, bookingId: string) =>
  scope.db
    .select()
    .from(bookingPayments)
    .where(whereIn(scope, bookingPayments, eq(bookingPayments.bookingId, bookingId)));

/** The payments of these bookings, in any workspace (the reconcile's rows name theirs). */
export const bookingPaymentsOf = (db: Database, bookingIds: readonly string[]) =>
  db.select().from(bookingPayments).where(idIn(bookingPayments.bookingId, bookingIds));

/** The booking payments a provider payment intent paid (a cart's checkout pays several). */
export const bookingPaymentsByIntent = (db: Database, paymentIntent: string) =>
  db
    .select()
    .from(bookingPayments)
    .where(eq(bookingPayments.paymentIntent, paymentIntent))
    .orderBy(asc(bookingPayments.createdAt), asc(bookingPayments.bookingId));

/** The provider refs these bookings' ledger names, and how many of their refunds await an answer. */
export async function ledgerRefsOf(db: Database, bookingIds: readonly string[]) {
  const rows = await db
    .select({ ref: payments.providerRef, kind: payments.kind, status: payments.status })
    .from(payments)
    .where(idIn(payments.bookingId, bookingIds));
  return {
    refs: new Set(rows.flatMap((r) => (r.ref ? [r.ref] : []))),
    pendingRefunds: rows.filter((r) => r.kind === "refund" && r.status === "pending").length,
  };
}

/** A ledger row still waiting for its provider's answer, by its id (a provider event names it). */
export async function pendingRowById(db: Database, id: string) {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.id, id), eq(payments.status, "pending")));
  return row ?? null;
}
