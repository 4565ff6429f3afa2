import { and, eq, isNull, sql } from "drizzle-orm";
import { idIn } from "../../db/bounded";
import { guard } from "../../db/guards";
import { vouchers, voucherPayments } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";
import type { Statement } from "../../db/statement";

export type VoucherRow = typeof vouchers.$inferSelect;

/** The workspace's vouchers with these (normalised) codes; another workspace's match nothing. */
export const vouchersByCodes = (scope: Scope, codes: readonly string[]) =>
  scope.db
    .select()
    .from(vouchers)
    .where(whereIn(scope, vouchers, idIn(vouchers.code, codes)));

/** The vouchers an order issued, in the order they were issued. */
export const vouchersIssuedBy = (scope: Scope, orderId: string) =>
  scope.db
    .select()
    .from(vouchers)
    .where(whereIn(scope, vouchers, eq(vouchers.orderId, orderId)))
    // rowid: the order of insertion, so codes list in the order their lines issued them.
    .orderBy(sql`rowid`);

/**
 * Spends part of a voucher on an order: a guard that the voucher is still
 * active at exactly the balance the request read (so two tills spending it at
 * once cannot both commit), the decrement, which also refuses to go below
 * zero on its own, and the payment row a refund restores from.
 */
export function spendVoucher(
  scope: Scope,
  spend: {
    voucher: Pick<VoucherRow, "id" | "balance">;
    amount: number;
    orderId: string;
    bookingId: string | null;
    at: number;
  },
): Statement[] {
  const { db, workspaceId } = scope;
  const { voucher, amount } = spend;
  return [
    guard(
      scope,
      sql`exists (select 1 from ${vouchers} where ${vouchers.id} = ${voucher.id} and ${vouchers.status} = 'active' and ${vouchers.balance} = ${voucher.balance} and ${vouchers.balance} >= ${amount})`,
    ),
    db
      .update(vouchers)
      .set({
        balance: sql`${vouchers.balance} - ${amount}`,
        status: sql`case when ${vouchers.balance} - ${amount} = 0 then 'redeemed' else 'active' end`,
      })
      .where(
        and(
          whereIn(scope, vouchers, eq(vouchers.id, voucher.id)),
          sql`${vouchers.balance} >= ${amount}`,
        ),
      ),
    db.insert(voucherPayments).values({
      id: crypto.randomUUID(),
      workspaceId,
      voucherId: voucher.id,
      orderId: spend.orderId,
      bookingId: spend.bookingId,
      amount,
      createdAt: spend.at,
    }),
  ];
}

const unreverted = (scope: Scope, orderId: string) =>
  whereIn(
    scope,
    voucherPayments,
    eq(voucherPayments.orderId, orderId),
    isNull(voucherPayments.revertedAt),
  );

/**
 * Gives back to each voucher what it paid on the order, and marks those
 * payments reverted so nothing is given back twice. To run inside the batch
 * guarded by the order's version.
 */
export function restoreVoucherPayments(scope: Scope, orderId: string, at: number) {
  const { db } = scope;
  const paidBy = sql`(select coalesce(sum(${voucherPayments.amount}), 0) from ${voucherPayments} where ${voucherPayments.voucherId} = ${vouchers.id} and ${voucherPayments.orderId} = ${orderId} and ${voucherPayments.revertedAt} is null)`;
  return [
    db
      .update(vouchers)
      .set({ balance: sql`${vouchers.balance} + ${paidBy}`, status: "active" })
      .where(
        whereIn(
          scope,
          vouchers,
          sql`${vouchers.id} in (select ${voucherPayments.voucherId} from ${voucherPayments} where ${unreverted(scope, orderId)})`,
        ),
      ),
    db.update(voucherPayments).set({ revertedAt: at }).where(unreverted(scope, orderId)),
  ] as const;
}

/** Some voucher the order issued has been spent (in part) or is no longer active. */
const issuedVoucherUsed = (orderId: string) =>
  sql`exists (select 1 from ${vouchers} where ${vouchers.orderId} = ${orderId} and (${vouchers.status} <> 'active' or ${vouchers.balance} < ${vouchers.initialAmount}))`;

/**
 * Voids the vouchers an order issued, with a guard that none of them has been
 * spent since the refund read them.
 */
export function voidIssuedVouchers(scope: Scope, orderId: string) {
  return [
    guard(scope, sql`not ${issuedVoucherUsed(orderId)}`),
    scope.db
      .update(vouchers)
      .set({ status: "void", balance: 0 })
      .where(whereIn(scope, vouchers, eq(vouchers.orderId, orderId))),
  ] as const;
}
