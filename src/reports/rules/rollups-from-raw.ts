import { bookingCounts } from "./booking-counts";
import { splitAtMidnights, sqlDayOf } from "./midnight-split";
import type { BookingDayRow, CalendarDayRow, RawRows, RevenueDayRow, Rollups } from "./raw-rows";
import { completedEntries, refundEntries, type RevenueEntry, saleEntries } from "./revenue-entries";
import { REVENUE_PROPERTY, type RevenueSum, zeroRevenue } from "./revenue-sums";

const FEE_KINDS = new Set(["late_cancel_fee", "no_show_fee"]);
const SOLD = new Set(["paid", "refunded"]);

/** Rows by their key, each added to; rows left all zero are dropped (a rebuild writes none). */
class Sums<T extends object> {
  private readonly rows = new Map<string, T>();
  constructor(private readonly blank: (id: string[]) => T) {}
  at(...id: (string | number)[]): T {
    const k = id.join("\u0000");
    let row = this.rows.get(k);
    if (!row) this.rows.set(k, (row = this.blank(id.map(String))));
    return row;
  }
  list(numbers: (keyof T)[]): T[] {
    return [...this.rows.values()].filter((r) => numbers.some((n) => r[n] !== 0));
  }
}

/**
 * The rollup rows of one location computed from its raw rows alone, by brute
 * force: what the triggers of 0038 and the order batches keep, one change at a
 * time, if nothing ever drifted. The rebuild writes these; the property test
 * compares them with the kept rollups and the reports.
 */
export function rollupsFromRaw(raw: RawRows): Rollups {
  const day = (ms: number) => sqlDayOf(ms, raw.offsets);
  const revenue = new Sums<RevenueDayRow>(([dim, d, key]) => ({
    dim: dim ?? "",
    day: Number(d),
    key: key ?? "",
    ...zeroRevenue(),
  }));
  const addRevenue = (at: number, entries: readonly RevenueEntry[]) => {
    for (const e of entries) {
      const row = revenue.at(e.dim, day(at), e.key);
      for (const [sum, value] of Object.entries(e.sums) as [RevenueSum, number][])
        (row[REVENUE_PROPERTY[sum]] as number) += value;
    }
  };
  const bookingDays = new Sums<BookingDayRow>(([dim, d, key]) => ({
    dim: dim ?? "",
    day: Number(d),
    key: key ?? "",
    bookings: 0,
    didntCome: 0,
    lateCancels: 0,
    fees: 0,
  }));

  const servicesOf = new Map<string, RawRows["bookingServices"]>();
  for (const s of [...raw.bookingServices].sort((a, b) => a.position - b.position))
    servicesOf.set(s.bookingId, [...(servicesOf.get(s.bookingId) ?? []), s]);
  const bookingById = new Map(raw.bookings.map((b) => [b.id, b]));

  for (const b of raw.bookings) {
    const services = servicesOf.get(b.id) ?? [];
    if (services.length > 0) {
      const counts = bookingCounts(b);
      const d = day(b.startAt);
      const add = (dim: string, key: string) => {
        const row = bookingDays.at(dim, d, key);
        row.bookings += counts.bookings;
        row.didntCome += counts.didntCome;
        row.lateCancels += counts.lateCancels;
      };
      for (const k of new Set(services.map((s) => s.serviceId))) add("service", k);
      for (const k of new Set(services.map((s) => s.stafferId))) add("staffer", k);
      add("customer", b.customerId);
    }
    if (b.isCompleted && b.completedAt !== null)
      // Under its own complete's till: a cart's bookings may be completed at two.
      addRevenue(b.completedAt, completedEntries(services, b.completedPaymentMethod));
  }

  // A fee: revenue on the day the money moved, the no-shows rollup on the booking's day.
  const fee = (bookingId: string, movedAt: number, amount: number) => {
    const b = bookingById.get(bookingId);
    if (!b || amount === 0) return;
    const first = servicesOf.get(bookingId)?.[0];
    const sums = { fees: amount };
    addRevenue(movedAt, [
      { dim: "day", key: "", sums },
      { dim: "staffer", key: first?.stafferId ?? "", sums },
      { dim: "service", key: first?.serviceId ?? "", sums },
      { dim: "payment_method", key: "online_account", sums },
    ]);
    const d = day(b.startAt);
    bookingDays.at("service", d, first?.serviceId ?? "").fees += amount;
    bookingDays.at("staffer", d, first?.stafferId ?? "").fees += amount;
    bookingDays.at("customer", d, b.customerId).fees += amount;
  };
  for (const p of raw.payments)
    if (FEE_KINDS.has(p.kind) && p.status === "succeeded") fee(p.bookingId, p.updatedAt, p.amount);
  for (const k of raw.keptFees) fee(k.bookingId, k.settledAt ?? k.createdAt, k.feeKept);

  for (const r of raw.renewals) {
    if (r.status !== "succeeded") continue;
    const sums = { packages_sold: r.amount };
    addRevenue(r.updatedAt, [
      { dim: "day", key: "", sums },
      { dim: "staffer", key: "", sums },
      { dim: "service", key: "", sums },
      { dim: "payment_method", key: "online_account", sums },
    ]);
  }

  for (const o of raw.orders) {
    if (SOLD.has(o.status) && o.paidAt !== null)
      addRevenue(o.paidAt, saleEntries(o.lines, o.paymentMethod));
    if (o.status === "refunded" && o.closedAt !== null)
      addRevenue(o.closedAt, refundEntries(o.lines, o.paymentMethod));
  }

  return {
    revenue: revenue.list([
      "bookingsCompleted",
      "servicesAmount",
      "goodsAmount",
      "vouchersSold",
      "packagesSold",
      "fees",
      "refunds",
      "discounts",
    ]),
    calendar: calendarDays(raw),
    bookings: bookingDays.list(["bookings", "didntCome", "lateCancels", "fees"]),
  };
}

/** Staffers' booked and blocked time per day: a group session (same staffer, start, session key) once. */
function calendarDays(raw: RawRows): CalendarDayRow[] {
  const out = new Sums<CalendarDayRow>(([d, stafferId]) => ({
    day: Number(d),
    stafferId: stafferId ?? "",
    bookedMs: 0,
    blockedMs: 0,
  }));
  const sessions = new Set<string>();
  for (const e of raw.calendarEntries) {
    if (e.stafferId === null || (e.kind !== "booking" && e.kind !== "blocked")) continue;
    if (e.sessionKey !== null) {
      const session = `${e.stafferId}\u0000${e.startsAt}\u0000${e.sessionKey}`;
      if (sessions.has(session)) continue;
      sessions.add(session);
    }
    for (const piece of splitAtMidnights(e.startsAt, e.endsAt, raw.offsets)) {
      const row = out.at(piece.day, e.stafferId);
      if (e.kind === "booking") row.bookedMs += piece.ms;
      else row.blockedMs += piece.ms;
    }
  }
  return out.list(["bookedMs", "blockedMs"]);
}
