import { sql } from "drizzle-orm";
import type { OrderLineRow } from "../db/queries/pos-orders";
import { goodStocks } from "../db/schema";
import type { Scope } from "../db/scope";

/**
 * The branch stock changes of an order's goods: `sign` −1 when they leave
 * with the customer (pay), +1 when they come back (refund). A good never
 * stocked at the branch gets its row.
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
  return [...moved].map(([goodId, quantity]) =>
    db
      .insert(goodStocks)
      .values({ workspaceId, goodId, locationId, quantity: sign * quantity, unitPrice: 0 })
      .onConflictDoUpdate({
        target: [goodStocks.goodId, goodStocks.locationId],
        set: { quantity: sql`${goodStocks.quantity} + ${sign * quantity}` },
      }),
  );
}
