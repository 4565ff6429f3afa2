import { sql } from "drizzle-orm";
import type { OrderLineRow } from "./pos-orders";
import { goodStocks } from "../../db/schema";
import type { Scope } from "../../db/scope";

/**
 * The branch stock changes of an order's goods: `sign` −1 when they leave
 * with the customer (pay), +1 when they come back (refund). A good never
 * stocked at the branch gets its row. One statement for all of them (the
 * goods as one JSON parameter): an order of 100 goods stays one statement of
 * its batch, not 100 (D1 sends at most 100 per batch).
 */
export function stockMoves(
  scope: Scope,
  locationId: string,
  lines: readonly OrderLineRow[],
  sign: 1 | -1,
) {
  const { db, workspaceId } = scope;
  const moved = new Map<string, number>();
  for (const l of lines)
    if (l.kind === "good") moved.set(l.refId, (moved.get(l.refId) ?? 0) + l.quantity);
  if (moved.size === 0) return [];
  const changes = JSON.stringify([...moved].map(([goodId, quantity]) => [goodId, sign * quantity]));
  return [
    db
      .insert(goodStocks)
      // Every column in table order; `where true` lets SQLite parse the upsert after a SELECT.
      .select(
        sql`select ${workspaceId}, json_extract(value, '$[0]'), ${locationId}, json_extract(value, '$[1]'), 0, null from json_each(${changes}) where true`,
      )
      .onConflictDoUpdate({
        target: [goodStocks.goodId, goodStocks.locationId],
        set: { quantity: sql`${goodStocks.quantity} + excluded.quantity` },
      }),
  ];
}
