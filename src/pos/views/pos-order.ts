import type { OrderLineRow, OrderRow, PosOrderRecord } from "../queries/pos-orders";
import { type Invoice as PricedInvoice, invoiceOf } from "../rules";
import { toIso } from "../../platform/clock";
import { renderCustomer } from "../../catalogue/views/customer";
import type { Invoice, PosOrder } from "./pos-order-schema";

export const renderInvoice = (
  invoice: PricedInvoice,
  order: Pick<OrderRow, "id" | "status"> | null,
): Invoice => ({ ...invoice, order_uuid: order?.id ?? null, status: order?.status ?? null });

export function renderOrder(record: PosOrderRecord): PosOrder {
  const { order, lines } = record;
  const invoice = invoiceOf(record);
  const common = (l: OrderLineRow) => ({
    name: l.name,
    quantity: l.quantity,
    price: l.unitPrice,
    staffer_uuid: l.stafferId,
  });
  return {
    uuid: order.id,
    status: order.status,
    order_number: order.orderNumber,
    is_reverted: order.isReverted,
    refund_reason: order.refundReason,
    booking_uuids: [...new Set(lines.flatMap((l) => (l.bookingId ? [l.bookingId] : [])))],
    created_at: toIso(order.createdAt),
    location_uuid: order.locationId,
    staffer_uuid: order.stafferId,
    base_amount: invoice.base_amount,
    subtotal: invoice.subtotal,
    taxes: invoice.taxes,
    total: invoice.total,
    amount_due: invoice.amount_due,
    account_paid_amount: invoice.account_paid_amount,
    voucher_paid_amount: invoice.voucher_paid_amount,
    online_paid_amount: order.onlinePaidAmount,
    // A refund gives back everything paid online, in the same write that marks the order refunded.
    online_refunded_amount: order.status === "refunded" ? order.onlinePaidAmount : 0,
    discount_amount: invoice.discount_amount,
    discount_mode: order.discountMode,
    discount_percent: order.discountPercent,
    promocode: order.promocode,
    promocode_discount_amount: order.promocode === null ? null : invoice.promocode_discount_amount,
    payment_method: order.paymentMethod,
    account_uuid: order.accountId,
    paid_at: order.paidAt === null ? null : toIso(order.paidAt),
    comment: order.comment,
    description: order.description,
    invoice_note: order.invoiceNote,
    customer: record.customer ? renderCustomer(record.customer) : null,
    goods: lines
      .filter((l) => l.kind === "good")
      .map((l) => ({ good_uuid: l.refId, article: l.article, ...common(l) })),
    services: lines
      .filter((l) => l.kind === "service")
      .map((l) => ({ service_uuid: l.refId, booking_uuid: l.bookingId, ...common(l) })),
    vouchers: lines
      .filter((l) => l.kind === "voucher")
      .map((l) => ({
        voucher_template_uuid: l.refId,
        ...common(l),
        codes: (record.issued ?? []).filter((v) => v.orderLineId === l.id).map((v) => v.code),
      })),
    packages: lines
      .filter((l) => l.kind === "package")
      .map((l) => ({
        package_uuid: l.refId,
        ...common(l),
        customer_package_uuids: (record.packages ?? [])
          .filter((p) => p.orderLineId === l.id)
          .map((p) => p.id),
      })),
  };
}
