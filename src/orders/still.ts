import { and, sql } from "drizzle-orm";
import { atVersion, guard } from "../db/guards";
import { orders } from "../db/schema";
import type { Scope } from "../db/scope";

/**
 * The first statement of every money write to an order: it is still at the
 * version read and in `status`, or the whole batch rolls back (two tills,
 * a pay and a cancel, two refunds: one of them loses here).
 */
export const orderStill = (
  scope: Scope,
  order: { id: string; version: number },
  status: "open" | "paid",
) =>
  guard(
    scope,
    and(
      atVersion(orders, order.id, order.version),
      sql`exists (select 1 from ${orders} where ${orders.id} = ${order.id} and ${orders.status} = ${status})`,
    ) ?? sql`0`,
  );
