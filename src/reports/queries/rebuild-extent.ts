import { asc, eq, sql } from "drizzle-orm";
import {
  bookingPayments,
  bookings,
  calendarEntries,
  customerPackages,
  locationOffsets,
  orders,
  packageRenewals,
  payments,
  reportBookingDays,
  reportCalendarDays,
  reportRevenueDays,
} from "../../db/schema";
import type { Scope } from "../../db/scope";

/**
 * What a location's rebuild spans, in one small batch: its offsets, the first
 * and last instant any raw row counts at (a booking's start or complete, an
 * order's pay or refund, a fee, a renewal, a calendar entry's start and end),
 * and every day that has rollup rows now (stale ones outside the raw rows'
 * span must go too).
 */
export async function readRebuildExtent(scope: Scope, locationId: string) {
  const { db, workspaceId: ws } = scope;
  // Scalar subqueries, not a UNION: D1 caps the terms of a compound SELECT.
  const ofBookings = sql`b.workspace_id = ${ws} and b.location_id = ${locationId}`;
  const ofOrders = sql`o.workspace_id = ${ws} and o.location_id = ${locationId}`;
  const ofEntries = sql`c.workspace_id = ${ws} and c.location_id = ${locationId}`;
  const edges = (fn: "min" | "max") => sql`
    (select ${sql.raw(fn)}(b.start_at) from ${bookings} b where ${ofBookings}),
    (select ${sql.raw(fn)}(b.completed_at) from ${bookings} b where ${ofBookings}),
    (select ${sql.raw(fn)}(o.paid_at) from ${orders} o where ${ofOrders}),
    (select ${sql.raw(fn)}(o.closed_at) from ${orders} o where ${ofOrders}),
    (select ${sql.raw(fn)}(c.${sql.raw(fn === "min" ? "starts_at" : "ends_at")}) from ${calendarEntries} c where ${ofEntries}),
    (select ${sql.raw(fn)}(p.updated_at) from ${payments} p join ${bookings} b on b.id = p.booking_id
      where ${ofBookings} and p.kind in ('late_cancel_fee', 'no_show_fee')),
    (select ${sql.raw(fn)}(coalesce(bp.settled_at, bp.created_at)) from ${bookingPayments} bp
      join ${bookings} b on b.id = bp.booking_id where ${ofBookings} and bp.fee_kept <> 0),
    (select ${sql.raw(fn)}(r.updated_at) from ${packageRenewals} r
      join ${customerPackages} cp on cp.id = r.customer_package_id
      where cp.workspace_id = ${ws} and cp.location_id = ${locationId})`;
  const days = (
    table: typeof reportRevenueDays | typeof reportCalendarDays | typeof reportBookingDays,
  ) => db.selectDistinct({ day: table.day }).from(table).where(eq(table.locationId, locationId));
  const [offsets, firsts, lasts, revenueDays, calendarDays, bookingDays] = await db.batch([
    db
      .select({ fromMs: locationOffsets.fromMs, offsetMs: locationOffsets.offsetMs })
      .from(locationOffsets)
      .where(eq(locationOffsets.locationId, locationId))
      .orderBy(asc(locationOffsets.fromMs)),
    db.select({ first: sql<string>`json_array(${edges("min")})` }).from(sql`(select 1)`),
    db.select({ last: sql<string>`json_array(${edges("max")})` }).from(sql`(select 1)`),
    days(reportRevenueDays),
    days(reportCalendarDays),
    days(reportBookingDays),
  ]);
  const instants = (json: string | undefined) =>
    (JSON.parse(json ?? "[]") as (number | null)[]).filter((t): t is number => t !== null);
  const first = instants(firsts[0]?.first);
  const last = instants(lasts[0]?.last);
  return {
    offsets,
    span: first.length === 0 ? null : { first: Math.min(...first), last: Math.max(...last) },
    rollupDays: [
      ...new Set([...revenueDays, ...calendarDays, ...bookingDays].map((d) => Number(d.day))),
    ],
  };
}
