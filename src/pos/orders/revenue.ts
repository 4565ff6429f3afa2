import type { Scope } from "../../db/scope";
import type { Statement } from "../../db/statement";
import { revenueRollup } from "../../reports/queries/revenue-rollup";
import { refundEntries, saleEntries } from "../../reports/rules/revenue-entries";
import { posSaleLines, type SoldOrderLine, type StoredOrder } from "../rules";

/** The order as its revenue needs it: its terms, its location and the method it was settled with. */
type RevenueOrder = StoredOrder & { locationId: string; paymentMethod: string | null };

/** The order's lines priced as its invoice prices them, as rollup entries of the location's day of `now`. */
const orderRollup =
  (entriesOf: typeof saleEntries) =>
  (scope: Scope, order: RevenueOrder, lines: readonly SoldOrderLine[], now: number): Statement[] =>
    revenueRollup(
      scope,
      { locationId: order.locationId, at: now },
      entriesOf(posSaleLines({ order, lines }), order.paymentMethod),
    );

/**
 * The revenue of a POS order paid at `now`, for the batch that marks it paid
 * (behind the order's guard: a losing retry adds nothing): its lines' gross
 * amounts and discounts on the location's day of the payment.
 */
export const orderSold = orderRollup(saleEntries);

/** A POS order refunded at `now`: what its sale added, under `refunds` on the refund's day. */
export const orderRefunded = orderRollup(refundEntries);
