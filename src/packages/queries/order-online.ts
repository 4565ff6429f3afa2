import { and, asc, eq, sql } from "drizzle-orm";
import { inSubquery } from "../../db/bounded";
import { accounts, orderLines, orders, packages } from "../../db/schema";
import { named, read } from "../../db/reads";
import { type Scope, whereIn } from "../../db/scope";
import { ONLINE_ACCOUNT_NAME } from "../../catalogue/rules/online-account";

/** The location's online account of the order (the oldest, should there be two), or null. */
export const orderOnlineAccount = (scope: Scope, orderId: string) =>
  read(
    [
      scope.db
        .select()
        .from(accounts)
        .where(
          whereIn(
            scope,
            accounts,
            eq(accounts.type, "online"),
            sql`${accounts.locationId} = (select ${orders.locationId} from ${orders} where ${orders.id} = ${orderId})`,
          ),
        )
        .orderBy(asc(accounts.createdAt), asc(accounts.id))
        .limit(1),
    ],
    ([rows]) => rows[0] ?? null,
  );

/** The templates the order's package lines sell, by id. */
export const orderTemplates = (scope: Scope, orderId: string) =>
  read(
    [
      scope.db
        .select()
        .from(packages)
        .where(
          whereIn(
            scope,
            packages,
            inSubquery(
              packages.id,
              scope.db
                .select({ id: orderLines.refId })
                .from(orderLines)
                .where(and(eq(orderLines.orderId, orderId), eq(orderLines.kind, "package"))),
            ),
          ),
        ),
    ],
    ([rows]) => new Map(rows.map((t) => [t.id, t])),
  );

/** What paying an order online reads with it: the account that takes the money, the templates. */
export const onlinePayReads = (scope: Scope, orderId: string) =>
  named({
    account: orderOnlineAccount(scope, orderId),
    templates: orderTemplates(scope, orderId),
  });

/** The online account a location made outside the API lacks, made in the paying batch. */
export const newOnlineAccount = (
  scope: Scope,
  account: { id: string; locationId: string; at: number },
) =>
  scope.db.insert(accounts).values({
    id: account.id,
    workspaceId: scope.workspaceId,
    locationId: account.locationId,
    name: ONLINE_ACCOUNT_NAME,
    type: "online",
    createdAt: account.at,
  });
