import { insertRows } from "../../db/bounded";
import { isGuardFailure } from "../../db/constraints";
import { runBatch } from "../../db/client";
import { takePromocodeUse } from "../queries/order-change";
import { newOrderRow, orderInsert, orderNumberSql } from "../queries/orders";
import { eventStatement } from "../../webhooks/queries/outbox";
import { loadOrderRefs } from "../queries/order-refs";
import type { PosOrderRecord } from "../queries/pos-orders";
import { orderLines } from "../../db/schema";
import type { Scope } from "../../db/scope";
import type { Statement } from "../../db/statement";
import {
  MAX_VOUCHERS_PER_ORDER,
  NOTHING_PAID,
  orderInvoice,
  orderTerms,
  termsRefusals,
} from "../rules";
import { type Problem, problem } from "../../platform/rules/problems";
import { ApiError, InvalidError, invalid } from "../../platform/errors";
import { renderOrder } from "../views/pos-order";
import type { PosOrder } from "../views/pos-order-schema";
import {
  noUsesLeft,
  type OrderSubject,
  packagesNeedCustomer,
  type RequestedLine,
  refsFor,
  resolveLines,
  resolvePromocode,
  sellsPackages,
  packageUnits,
  tooManyPackages,
  tooManyVouchers,
  voucherUnits,
} from "./resolve";
import { packageLines } from "../package-lines";

export const POS_PERMISSION = "access-pos";

/** What opening an order can be wrong about: an order's things, its seller, its customer. */
export type CreateOrderSubject = OrderSubject | { is: "seller" } | { is: "customer" };

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
  const problems: Problem<CreateOrderSubject>[] = [];
  if (!refs.location) problems.push(problem({ is: "location" }, "Unknown location."));
  if (!refs.seller) problems.push(problem({ is: "seller" }, "Unknown staffer."));
  else if (!refs.seller.permissions.includes(POS_PERMISSION))
    throw new ApiError("forbidden", "The seller does not hold the access-pos permission.");
  else if (refs.location && !refs.sellerWorksHere)
    problems.push(problem({ is: "seller" }, "The seller does not work at this location."));
  if (req.customerId !== null && !refs.customer)
    problems.push(problem({ is: "customer" }, "Unknown customer."));
  else if (req.customerId === null && sellsPackages(req.lines))
    problems.push(problem({ is: "customer" }, packagesNeedCustomer));
  const lines = resolveLines(req.lines, refs, problems, req.sellerId);
  const promo = resolvePromocode(req.promocode, refs, problems);
  if (voucherUnits(req.lines) > MAX_VOUCHERS_PER_ORDER)
    problems.push(problem({ is: "vouchers" }, tooManyVouchers));
  const { maxUnits } = packageLines();
  if (packageUnits(req.lines) > maxUnits)
    problems.push(problem({ is: "packages" }, tooManyPackages(maxUnits)));
  if (problems.length > 0) throw new InvalidError(problems);

  // The terms are checked on the lines as resolved: a second 422, only once the lines are right.
  const terms = orderTerms({ ...req, promocode: promo?.code ?? null });
  const refused = termsRefusals(lines, terms);
  if (refused.length > 0) throw new InvalidError(refused);
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
  const record: PosOrderRecord = { order, lines: lineRows, customer: refs.customer };
  const rendered = renderOrder(record);

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
    throw isGuardFailure(e) ? invalid({ is: "promocode" }, noUsesLeft) : e;
  });
  const [numbered] = results[inserted] as { orderNumber: number }[];
  return { ...rendered, order_number: numbered?.orderNumber ?? 0 };
}
