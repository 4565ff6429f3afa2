import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { bookingPayments, bookings } from "../../db/schema";
import type { Database } from "../../db/client";
import { guard } from "../../db/guards";
import { type Scope, whereIn } from "../../db/scope";
import { insertLedgerRow, type NewLedgerRow } from "./ledger";

/** A canceled booking's cancel and its payment: what its settlement is decided from. */
export async function settlementRead(scope: Scope, bookingId: string) {
  const [row] = await scope.db
    .select({
      isCanceled: bookings.isCanceled,
      startAt: bookings.startAt,
      canceledAt: bookings.canceledAt,
      canceledBy: bookings.canceledBy,
      cancelReason: bookings.cancelReason,
      chargeFee: bookings.cancelChargesFee,
      payment: bookingPayments,
    })
    .from(bookingPayments)
    .innerJoin(bookings, eq(bookings.id, bookingPayments.bookingId))
    .where(
      and(
        whereIn(scope, bookingPayments, eq(bookingPayments.bookingId, bookingId)),
        eq(bookings.workspaceId, scope.workspaceId),
      ),
    );
  return row ?? null;
}

export type SettlementRecord = NonNullable<Awaited<ReturnType<typeof settlementRead>>>;

const unsettled = (bookingId: string) =>
  and(eq(bookingPayments.bookingId, bookingId), isNull(bookingPayments.settledAt));

/**
 * The settlement of a cancel, claimed once per booking: the batch fails its
 * guard unless the booking's payment is still unsettled, so of two settlers
 * (the after-write hook and the reconcile loop, or a retried effect) one
 * writes the ledger rows and the other nothing. The rows are written before
 * any provider call, under the keys the calls are made with. `feeKept`
 * (the fee kept out of the money paid online) is set with `settled_at`, so
 * 0038's trigger counts it as revenue once, in the claim's own transaction.
 */
export const claimSettlement = (
  scope: Scope,
  bookingId: string,
  rows: NewLedgerRow[],
  now: number,
  feeKept: number | null = null,
) =>
  [
    guard(scope, sql`exists (select 1 from ${bookingPayments} where ${unsettled(bookingId)})`),
    scope.db
      .update(bookingPayments)
      .set({ settledAt: now, feeKept })
      .where(whereIn(scope, bookingPayments, unsettled(bookingId))),
    ...rows.map((row) => insertLedgerRow(scope.db, row)),
  ] as const;

/**
 * Canceled bookings whose payment nobody settled (the after-write hook never
 * ran, or failed before its claim), in every workspace, oldest first.
 */
export const unsettledCancels = (db: Database, limit: number) =>
  db
    .select({ workspaceId: bookingPayments.workspaceId, bookingId: bookingPayments.bookingId })
    .from(bookingPayments)
    .innerJoin(bookings, eq(bookings.id, bookingPayments.bookingId))
    .where(and(isNull(bookingPayments.settledAt), eq(bookings.isCanceled, true)))
    .orderBy(asc(bookingPayments.createdAt))
    .limit(limit);
