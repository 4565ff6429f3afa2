import type { orderLines, orders } from "../db/schema";
import type { Scope } from "../db/scope";
import { ApiError } from "../platform/errors";
import type { IssuedPackage } from "../pos/package-lines";
import { issuePackages, type SoldUnit } from "./issue";
import type { TemplateRow } from "./queries/order-sale";

type OrderRow = typeof orders.$inferSelect;
type OrderLineRow = typeof orderLines.$inferSelect;

export const cardRequired = () =>
  new ApiError(
    "card_required",
    "The order sells a membership: it renews on a saved card, so it is paid online (POST /orders/{order_uuid}/checkout), not at a till.",
  );

/**
 * The packages paying an order issues, for the batch that marks it paid
 * (at a till, or when its online payment completes):
 *
 * - `templates`: the templates its package lines name, by id (`orderSaleRead`
 *   reads them with the order);
 * - `values`: per line, per unit, what was paid for that unit (pos's
 *   `voucherValuesOf({ order, lines })`: the line's price less its share of
 *   the order's discount and promocode); a unit's package is sold at it;
 * - `card`: the card saved by the online payment. Without one a membership
 *   line is refused (409 `card_required`): it would have nothing to renew with.
 *
 * Returns the statements (packages, first-period credits, `package-issued`
 * events) and the rows, one per unit in line order. The order must name a customer.
 * In a `changeOrder` plan, hand them over as `sells: { issued: issuedOf(records),
 * statements }` so the rendered order lists them (`customer_package_uuids`).
 */
export function packagesSoldBy(
  scope: Scope,
  templates: ReadonlyMap<string, TemplateRow>,
  order: Pick<OrderRow, "id" | "customerId" | "locationId">,
  lines: readonly OrderLineRow[],
  values: readonly (readonly number[])[],
  at: number,
  card?: SoldUnit["card"],
) {
  const units: SoldUnit[] = [];
  lines.forEach((l, i) => {
    if (l.kind !== "package") return;
    const template = templates.get(l.refId);
    // Templates are never deleted; a missing one is a broken invariant, not a request's fault.
    if (!template) throw new Error(`Package template ${l.refId} of order ${order.id} not found.`);
    if (template.renews !== null && !card) throw cardRequired();
    if (order.customerId === null) throw new Error(`Order ${order.id} sells packages to nobody.`);
    for (let unit = 0; unit < l.quantity; unit++)
      units.push({
        template,
        orderId: order.id,
        orderLineId: l.id,
        locationId: order.locationId,
        customerId: order.customerId,
        price: values[i]?.[unit] ?? 0,
        card,
      });
  });
  return issuePackages(scope, units, at);
}

/** The rows `packagesSoldBy` issued, as a rendered order lists them. */
export const issuedOf = (
  records: readonly { pkg: { id: string; orderId: string; orderLineId: string } }[],
): IssuedPackage[] =>
  records.map(({ pkg }) => ({ id: pkg.id, orderId: pkg.orderId, orderLineId: pkg.orderLineId }));
