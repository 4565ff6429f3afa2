import { sql } from "drizzle-orm";
import { guard } from "../db/guards";
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
    sql`exists (select 1 from ${orders} where ${orders.id} = ${order.id} and ${orders.version} = ${order.version} and ${orders.status} = ${status})`,
  );
