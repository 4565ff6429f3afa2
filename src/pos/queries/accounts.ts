import { eq, type SQL, sql } from "drizzle-orm";
import type { PageRequest } from "../../platform/pagination";
import { accounts, accountTransactions, orders } from "../../db/schema";
import { read } from "../../db/reads";
import { type Scope, whereIn } from "../../db/scope";
import { listInWorkspace } from "../../db/queries/list";

/**
 * Money received on a payment account: its balance and a transaction row, to
 * go into the batch that records what was paid for.
 */
export function creditAccount(
  scope: Scope,
  credit: {
    accountId: string;
    amount: number;
    orderId: string;
    bookingId: string | null;
    at: number;
  },
) {
  const { db, workspaceId } = scope;
  return [
    db
      .update(accounts)
      .set({ balance: sql`${accounts.balance} + ${credit.amount}` })
      .where(whereIn(scope, accounts, eq(accounts.id, credit.accountId))),
    db.insert(accountTransactions).values({
      id: crypto.randomUUID(),
      workspaceId,
      accountId: credit.accountId,
      amount: credit.amount,
      orderId: credit.orderId,
      bookingId: credit.bookingId,
      createdAt: credit.at,
    }),
  ] as const;
}

/** A page of the workspace's payment accounts, of one location when given (an unknown one matches nothing). */
export const listAccounts = (scope: Scope, page: PageRequest, filter: { locationId?: string }) =>
  listInWorkspace(
    scope,
    accounts,
    page,
    filter.locationId ? eq(accounts.locationId, filter.locationId) : undefined,
  );

/** One account by id (or by a subquery naming it), as a read to run beside others. */
export const accountRead = (scope: Scope, id: string | SQL) =>
  read(
    [
      scope.db
        .select()
        .from(accounts)
        .where(whereIn(scope, accounts, eq(accounts.id, id))),
    ],
    ([rows]) => rows[0] ?? null,
  );

/** The account an order was paid on, as a subquery. */
export const accountPaidOn = (orderId: string) =>
  sql`(select ${orders.accountId} from ${orders} where ${orders.id} = ${orderId})`;
