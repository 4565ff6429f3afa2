import type { RevenueDim } from "../../platform/rules/report-dims";
import type { RevenueSum } from "./revenue-sums";

/** What an order sold, one line as the invoice priced it (minor units, before tax). */
export interface SaleLine {
  kind: "service" | "good" | "voucher" | "package";
  /** Unit price × quantity. */
  gross: number;
  /** After its share of the order's discount and promocode (the invoice's split). */
  net: number;
  stafferId: string | null;
  serviceId: string | null;
}

/** One rollup row's change: the dimension, its key ('' = none) and what it adds. */
export interface RevenueEntry {
  dim: RevenueDim;
  key: string;
  sums: Partial<Record<RevenueSum, number>>;
}

const AMOUNT_OF: Record<SaleLine["kind"], RevenueSum> = {
  service: "services_amount",
  good: "goods_amount",
  voucher: "vouchers_sold",
  package: "packages_sold",
};

/** Adds `sums` under (dim, key), merging repeats, so each rollup row is written once. */
class Entries {
  private readonly rows = new Map<string, RevenueEntry>();
  add(dim: RevenueDim, key: string | null, sums: Partial<Record<RevenueSum, number>>) {
    const k = key ?? "";
    const id = `${dim}\u0000${k}`;
    const row = this.rows.get(id) ?? { dim, key: k, sums: {} };
    for (const [name, value] of Object.entries(sums) as [RevenueSum, number][])
      row.sums[name] = (row.sums[name] ?? 0) + value;
    this.rows.set(id, row);
  }
  /** Every dimension gets the same sums: the day's total, and by staffer, service and method. */
  everywhere(
    line: Pick<SaleLine, "stafferId" | "serviceId">,
    method: string | null,
    sums: Partial<Record<RevenueSum, number>>,
  ) {
    this.add("day", "", sums);
    this.add("staffer", line.stafferId, sums);
    this.add("service", line.serviceId, sums);
    this.add("payment_method", method, sums);
  }
  list = () => [...this.rows.values()];
}

/**
 * An order paid: each line's gross amount under its kind, its share of the
 * discounts under `discounts`, in every dimension (a service line under its
 * service and staffer, a good under its seller, the order under the method it
 * was settled with). So net = the amounts − discounts = the order's subtotal.
 */
export function saleEntries(lines: readonly SaleLine[], method: string | null): RevenueEntry[] {
  const out = new Entries();
  for (const line of lines)
    out.everywhere(line, method, {
      [AMOUNT_OF[line.kind]]: line.gross,
      discounts: line.gross - line.net,
    });
  return out.list();
}

/** An order refunded: each line's net amount (what its sale added) under `refunds`, where the sale put it. */
export function refundEntries(lines: readonly SaleLine[], method: string | null): RevenueEntry[] {
  const out = new Entries();
  for (const line of lines) out.everywhere(line, method, { refunds: line.net });
  return out.list();
}

/**
 * A booking completed: one under the day's total and the method, and one
 * under each of its staffers and services (a booking of two services counts
 * under both; the dimension's total of completions is then larger than the
 * day's, as a booking of two staffers is one booking for each).
 */
export function completedEntries(
  services: readonly { stafferId: string; serviceId: string }[],
  method: string | null,
): RevenueEntry[] {
  const out = new Entries();
  const one = { bookings_completed: 1 };
  out.add("day", "", one);
  out.add("payment_method", method, one);
  for (const stafferId of new Set(services.map((s) => s.stafferId)))
    out.add("staffer", stafferId, one);
  for (const serviceId of new Set(services.map((s) => s.serviceId)))
    out.add("service", serviceId, one);
  return out.list();
}
