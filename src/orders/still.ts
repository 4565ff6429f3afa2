import { sql } from "drizzle-orm";
import { isGuardFailure } from "../db/constraints";
import { guard } from "../db/guards";
import { probe } from "../lib/failpoints";
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

/**
 * Runs a money write to an order; when its guard refused it (another write to
 * the order came first), runs it once more on fresh state, where it may find
 * the order closed. A second refusal answers `lost()`. `probeName` counts the
 * first refusals, for the race tests.
 */
export async function onceMore<T>(
  probeName: string,
  run: (retry: boolean) => Promise<T>,
  lost: () => Error,
): Promise<T> {
  try {
    return await run(false);
  } catch (error) {
    if (!isGuardFailure(error)) throw error;
    probe(probeName);
  }
  return run(true).catch((e: unknown) => {
    throw isGuardFailure(e) ? lost() : e;
  });
}
