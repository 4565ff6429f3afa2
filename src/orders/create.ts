import { insertRows } from "../db/bounded";
import { isGuardFailure } from "../db/constraints";
import { runBatch } from "../db/client";
import { takePromocodeUse } from "../db/queries/order-change";
import { newOrderRow, orderInsert, orderNumberSql } from "../db/queries/orders";
import { eventStatement } from "../db/queries/outbox";
import { loadOrderRefs } from "../db/queries/order-refs";
import type { PosOrderView } from "../db/queries/pos-orders";
import { orderLines } from "../db/schema";
import type { Scope } from "../db/scope";
import type { Statement } from "../db/statement";
import {
  MAX_VOUCHERS_PER_ORDER,
  NOTHING_PAID,
  orderInvoice,
  orderTerms,
  termsErrors,
} from "../domain/pricing";
import { ApiError, type FieldErrors, fieldError, validationError } from "../lib/errors";
import { renderOrder } from "../views/pos-order";
import type { PosOrder } from "../views/pos-order-schema";
import {
  type RequestedLine,
  refsFor,
  resolveLines,
  resolvePromocode,
  tooManyVouchers,
  voucherUnits,
} from "./resolve";

export const POS_PERMISSION = "access-pos";

export interface CreateOrderRequest {
  locationId: string;
  sellerId: string;
  customerId: string | null;
  lines: RequestedLine[];
  discountMode: "fixed" | "percent" | null;
  discountAmount: number | null;
  discountPercent: number | null;
  promocode: string | null;
  promocodeDiscountAmount: number | null;
  description: string | null;
  comment: string | null;
  invoiceNote: string | null;
}

/**
 * Opens a POS order: every reference checked in one read, priced by the
 * shared invoice function, then written in one batch with its lines, its
 * promocode use and its `order-created` event.
 */
export async function createPosOrder(scope: Scope, req: CreateOrderRequest): Promise<PosOrder> {
  const { db, workspaceId } = scope;
  const refs = await loadOrderRefs(
    scope,
    refsFor(req.locationId, req.lines, {
      sellerId: req.sellerId,
      customerId: req.customerId,
      promocode: req.promocode,
    }),
  );
  const errors: FieldErrors = {};
  if (!refs.location) errors.location_uuid = ["Unknown location."];
  if (!refs.seller) errors.staffer_uuid = ["Unknown staffer."];
  else if (!refs.seller.permissions.includes(POS_PERMISSION))
    throw new ApiError("forbidden", "The seller does not hold the access-pos permission.");
  else if (refs.location && !refs.sellerWorksHere)
    errors.staffer_uuid = ["The seller does not work at this location."];
  if (req.customerId !== null && !refs.customer) errors.customer_uuid = ["Unknown customer."];
  const lines = resolveLines(req.lines, refs, errors, req.sellerId);
  const promo = resolvePromocode(req.promocode, refs, errors);
  if (voucherUnits(req.lines) > MAX_VOUCHERS_PER_ORDER) errors.vouchers = [tooManyVouchers];
  if (Object.keys(errors).length > 0) throw validationError(errors);

  const terms = orderTerms({ ...req, promocode: promo?.code ?? null });
  const problems = termsErrors(lines, terms);
  if (Object.keys(problems).length > 0) throw validationError(problems);
  // Freeze what the code is worth today, so paying later charges this very total.
  const priced = orderInvoice(lines, terms, NOTHING_PAID, promo);
  terms.promocodeDiscountAmount = promo ? priced.promocode_discount_amount : null;

  const order = newOrderRow({
    workspaceId,
    kind: "pos",
    locationId: req.locationId,
    stafferId: req.sellerId,
    customerId: req.customerId,
    ...terms,
    subtotal: priced.subtotal,
    taxTotal: priced.total - priced.subtotal,
    total: priced.total,
    comment: req.comment,
    description: req.description,
    invoiceNote: req.invoiceNote,
  });
  const lineRows = lines.map((l) => ({
    id: crypto.randomUUID(),
    workspaceId,
    orderId: order.id,
    kind: l.kind,
    refId: l.refId,
    bookingId: l.bookingId,
    position: l.position,
    name: l.name,
    article: l.article,
    unitPrice: l.unitPrice,
    catalogPrice: l.catalogPrice,
    quantity: l.quantity,
    stafferId: l.stafferId,
    taxName: l.taxName,
    taxRateBp: l.taxRateBp,
  }));
  const view: PosOrderView = { order, lines: lineRows, customer: refs.customer };
  const rendered = renderOrder(view);

  // Two tills racing for a capped code's last use: only one batch may commit.
  const statements: Statement[] = promo
    ? takePromocodeUse(scope, {
        promocodeId: promo.id,
        maxUses: promo.maxUses,
        orderId: order.id,
        bookingId: lines.find((l) => l.bookingId !== null)?.bookingId ?? null,
        at: order.createdAt,
      })
    : [];
  const [bump, insert] = orderInsert(db, order);
  const inserted = statements.push(bump, insert) - 1;
  statements.push(...insertRows(db, orderLines, lineRows));
  statements.push(
    eventStatement(db, workspaceId, "order-created", rendered, {
      order_number: orderNumberSql(workspaceId),
    }),
  );
  const results = await runBatch(db, statements).catch((e: unknown) => {
    throw isGuardFailure(e) ? fieldError("promocode", "This promocode has no uses left.") : e;
  });
  const [numbered] = results[inserted] as { orderNumber: number }[];
  return { ...rendered, order_number: numbered?.orderNumber ?? 0 };
}
