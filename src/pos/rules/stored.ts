import { type Invoice, type PricingInput, priceInvoice } from "./invoice";
import { lineNets, type OrderLine, type OrderTerms, orderInvoice, voucherValues } from "./order";

/** What an order has been paid so far, as the order stores it. */
export interface PaidSoFar {
  accountPaidAmount: number;
  voucherPaidAmount: number;
  /** A booking order's: what was paid online for its completed bookings. */
  onlinePaidAmount?: number;
}

/** A booked service as its booking's order prices it. */
export interface BookedServiceLine {
  price: number;
  originalPrice: number;
  quantity: number;
  taxName: string | null;
  taxRateBp: number | null;
}

/**
 * A booking order's invoice: every service on the order (a cart order spans
 * several bookings) at its booked price, no discount, less what has been paid.
 * The booking write stores these totals, complete decides from them whether
 * the order is paid, and the booking response shows them: the one pricing
 * function, as POS invoices use it.
 */
export function bookingOrderInvoice(view: {
  order: PaidSoFar;
  orderServices: readonly BookedServiceLine[];
}): Invoice {
  return priceInvoice(bookingOrderPricing(view));
}

/** A booking order's pricing input: what its invoice and its sale's lines are both computed from. */
export function bookingOrderPricing(view: {
  order: PaidSoFar;
  orderServices: readonly BookedServiceLine[];
}): PricingInput {
  return {
    lines: view.orderServices.map((s) => ({
      kind: "service" as const,
      unitPrice: s.price,
      catalogPrice: s.originalPrice,
      quantity: s.quantity,
      tax: s.taxRateBp === null ? null : { name: s.taxName ?? "Tax", rateBp: s.taxRateBp },
    })),
    discount: null,
    promocode: null,
    promocodeDiscountAmount: null,
    paid: {
      account: view.order.accountPaidAmount,
      voucher: view.order.voucherPaidAmount,
      online: view.order.onlinePaidAmount ?? 0,
    },
  };
}

/** A POS order as it is stored: its terms and what has been paid. */
export type StoredOrder = OrderTerms & PaidSoFar;

const termsOf = (o: StoredOrder): OrderTerms => ({
  discountMode: o.discountMode,
  discountAmount: o.discountAmount,
  discountPercent: o.discountPercent,
  promocode: o.promocode,
  promocodeDiscountAmount: o.promocodeDiscountAmount,
});

const pricedLine = (l: OrderLine): OrderLine => ({
  kind: l.kind,
  unitPrice: l.unitPrice,
  catalogPrice: l.catalogPrice,
  quantity: l.quantity,
  taxName: l.taxName,
  taxRateBp: l.taxRateBp,
});

/**
 * A stored POS order's invoice as it stands, from the same function that
 * priced it when it was created: what pay charges (`amount_due`) and what
 * the order response shows.
 */
export const invoiceOf = (view: { order: StoredOrder; lines: readonly OrderLine[] }): Invoice =>
  orderInvoice(view.lines.map(pricedLine), termsOf(view.order), {
    account: view.order.accountPaidAmount,
    voucher: view.order.voucherPaidAmount,
  });

/** What each voucher a stored order issues when paid is worth (`voucherValues`), per line. */
export const voucherValuesOf = (view: {
  order: StoredOrder;
  lines: readonly OrderLine[];
}): number[][] => voucherValues(view.lines.map(pricedLine), termsOf(view.order));

/** What each line of a stored POS order costs after its discount and promocode (`invoiceOf`'s split). */
export const lineNetsOf = (view: { order: StoredOrder; lines: readonly OrderLine[] }): number[] =>
  lineNets(view.lines.map(pricedLine), termsOf(view.order));
