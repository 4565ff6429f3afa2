import { and, asc, eq, lt, sql } from "drizzle-orm";
import { bookingPayments, payments } from "../../db/schema";
import type { Database } from "../../db/client";
import { type Scope, whereIn } from "../../db/scope";
import { listPage } from "../../db/queries/list";
import type { PageRequest } from "../../platform/pagination";

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

/**
 * What the provider answered, written once: only a pending row changes, and
 * the booking's totals move in the same statement pair, so a replayed answer
 * (a retry, a reconcile) never counts money twice.
 */
export function recordOutcome(
  db: Database,
  row: Pick<LedgerRecord, "id" | "bookingId" | "workspaceId" | "kind" | "amount">,
  outcome: {
    status: "succeeded" | "failed";
    providerRef: string | null;
    failureReason: string | null;
  },
  now: number,
) {
  const pending = and(eq(payments.id, row.id), eq(payments.status, "pending"));
  const moves =
    outcome.status === "succeeded" && row.amount > 0 && row.kind !== "card_saved"
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
        ]
      : [];
  return [
    ...moves,
    db
      .update(payments)
      .set({ ...outcome, updatedAt: now })
      .where(pending)
      .returning({ id: payments.id }),
  ] as const;
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
    .limit(limit);

export const insertBookingPayment = (db: Database, row: NewBookingPayment) =>
  db.insert(bookingPayments).values(row).onConflictDoNothing();

export const selectBookingPayment = (scope: Scope, bookingId: string) =>
  scope.db
    .select()
    .from(bookingPayments)
    .where(whereIn(scope, bookingPayments, eq(bookingPayments.bookingId, bookingId)));
