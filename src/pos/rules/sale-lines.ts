import type { SaleLine } from "../../reports/rules/revenue-entries";
import { discountedLineAmounts } from "./invoice";
import type { OrderLine } from "./order";
import {
  type BookedServiceLine,
  bookingOrderPricing,
  lineNetsOf,
  type StoredOrder,
} from "./stored";

/** A POS order's line as the sale report needs it: what it sold and who sold it. */
export interface SoldOrderLine extends OrderLine {
  /** The good, service, voucher or package template sold. */
  refId: string;
  stafferId: string | null;
}

/**
 * A POS order's lines as its sale counts them: each line's gross (unit price
 * × quantity) and its net after its share of the discount and promocode,
 * split as the invoice splits them (`lineNetsOf`), so the nets add up to the
 * invoice's subtotal exactly. A service line counts under its service.
 */
export function posSaleLines(view: {
  order: StoredOrder;
  lines: readonly SoldOrderLine[];
}): SaleLine[] {
  const nets = lineNetsOf(view);
  return view.lines.map((l, i) => ({
    kind: l.kind,
    gross: l.unitPrice * l.quantity,
    net: nets[i] ?? 0,
    stafferId: l.stafferId,
    serviceId: l.kind === "service" ? l.refId : null,
  }));
}

/** A booked service as the sale report needs it. */
export interface SoldBookedService extends BookedServiceLine {
  serviceId: string;
  stafferId: string;
}

/**
 * A booking order's sale: every service its invoice prices (a cart's order
 * holds the services of all its bookings), from the same pricing input as
 * `bookingOrderInvoice`, so the nets add up to its subtotal exactly.
 */
export function bookingSaleLines(orderServices: readonly SoldBookedService[]): SaleLine[] {
  const nets = discountedLineAmounts(
    bookingOrderPricing({
      order: { accountPaidAmount: 0, voucherPaidAmount: 0 },
      orderServices,
    }),
  );
  return orderServices.map((s, i) => ({
    kind: "service",
    gross: s.price * s.quantity,
    net: nets[i] ?? 0,
    stafferId: s.stafferId,
    serviceId: s.serviceId,
  }));
}
