import { dateOf, localDay } from "./sql";

/**
 * Each report computed from the raw rows (bookings, booking_services, orders, order_lines,
 * payments, calendar_entries, staffer_schedules), as a plain GROUP BY over the period: what
 * the rollups replace. Parameters: ?1 location, ?2 first day, ?3 last day (day numbers).
 * A booking order sells its booked services; a POS order its lines. Written for the seeded
 * year (one service per booking, one line per POS order, booking orders without discount, no
 * date overrides, no group sessions, no entry across midnight), where it must equal the
 * rollup-based report to the minor unit; it is the bench's check, not a second implementation.
 */

export type Report = "revenue" | "utilization" | "no-shows";

const week = (day: string) => dateOf(`${day} - (${day} + 3) % 7`);
const month = (day: string) => `strftime('%Y-%m', (${day}) * 86400, 'unixepoch')`;

const REVENUE_KEY: Record<string, string> = {
  day: dateOf("day"),
  week: week("day"),
  month: month("day"),
  staffer: "staffer",
  service: "service",
  payment_method: "method",
};

export function rawRevenue(groupBy: string): string {
  const gross = "l.unit_price * l.quantity";
  const line = `l.staffer_id AS staffer, CASE WHEN l.kind = 'service' THEN l.ref_id END AS service, o.payment_method AS method`;
  const amounts = (kind: string) => `CASE WHEN l.kind = '${kind}' THEN ${gross} ELSE 0 END`;
  return `WITH facts AS (
    SELECT ${localDay("o.paid_at")} AS day, ${line}, 0 AS bc, ${amounts("service")} AS sa,
      ${amounts("good")} AS ga, ${amounts("voucher")} AS vs, ${amounts("package")} AS ps,
      0 AS fees, 0 AS rf, o.discount_amount AS dc
    FROM orders o JOIN order_lines l ON l.order_id = o.id
    WHERE o.location_id = ?1 AND o.paid_at IS NOT NULL AND o.status IN ('paid', 'refunded')
    UNION ALL
    SELECT ${localDay("o.paid_at")}, bs.staffer_id, bs.service_id, o.payment_method, 0,
      bs.price * bs.quantity, 0, 0, 0, 0, 0, 0
    FROM orders o JOIN bookings b ON b.order_id = o.id JOIN booking_services bs ON bs.booking_id = b.id
    WHERE o.location_id = ?1 AND o.kind = 'booking' AND o.paid_at IS NOT NULL
      AND o.status IN ('paid', 'refunded')
    UNION ALL
    SELECT ${localDay("o.closed_at")}, ${line}, 0, 0, 0, 0, 0, 0, ${gross} - o.discount_amount, 0
    FROM orders o JOIN order_lines l ON l.order_id = o.id
    WHERE o.location_id = ?1 AND o.status = 'refunded'
    UNION ALL
    SELECT ${localDay("b.completed_at")}, bs.staffer_id, bs.service_id, o.payment_method,
      1, 0, 0, 0, 0, 0, 0, 0
    FROM bookings b JOIN booking_services bs ON bs.booking_id = b.id JOIN orders o ON o.id = b.order_id
    WHERE b.location_id = ?1 AND b.is_completed = 1
    UNION ALL
    SELECT ${localDay("p.updated_at")}, bs.staffer_id, bs.service_id, 'online_account',
      0, 0, 0, 0, 0, p.amount, 0, 0
    FROM payments p JOIN bookings b ON b.id = p.booking_id JOIN booking_services bs ON bs.booking_id = b.id
    WHERE b.location_id = ?1 AND p.kind IN ('late_cancel_fee', 'no_show_fee') AND p.status = 'succeeded')
  SELECT ${REVENUE_KEY[groupBy]} AS key, sum(bc) AS bookings_completed, sum(sa) AS services_amount,
    sum(ga) AS goods_amount, sum(vs) AS vouchers_sold, sum(ps) AS packages_sold, sum(fees) AS fees,
    sum(rf) AS refunds, sum(dc) AS discounts,
    sum(sa) + sum(ga) + sum(vs) + sum(ps) + sum(fees) - sum(dc) - sum(rf) AS net
  FROM facts WHERE day BETWEEN ?2 AND ?3 GROUP BY 1 ORDER BY 1`;
}

const minutes = (hhmm: string) =>
  `(CAST(substr(${hhmm}, 1, 2) AS INTEGER) * 60 + CAST(substr(${hhmm}, 4, 2) AS INTEGER))`;

export function rawUtilization(groupBy: string): string {
  const key = groupBy === "day" ? dateOf("day") : "staffer";
  return `WITH RECURSIVE days(day) AS (SELECT ?2 UNION ALL SELECT day + 1 FROM days WHERE day < ?3),
  work AS (
    SELECT s.staffer_id AS staffer, d.day, ${minutes("s.end")} - ${minutes("s.start")} AS working,
      0 AS booked, 0 AS blocked
    FROM staffer_schedules s JOIN days d ON s.weekday = (d.day + 3) % 7 + 1
    WHERE s.location_id = ?1),
  cal AS (
    SELECT e.staffer_id AS staffer, ${localDay("e.starts_at")} AS day, 0 AS working,
      CASE WHEN e.kind = 'booking' THEN e.ends_at - e.starts_at ELSE 0 END AS booked,
      CASE WHEN e.kind = 'blocked' THEN e.ends_at - e.starts_at ELSE 0 END AS blocked
    FROM calendar_entries e
    WHERE e.location_id = ?1 AND e.staffer_id IS NOT NULL AND e.kind IN ('booking', 'blocked')),
  facts AS (SELECT * FROM work UNION ALL SELECT * FROM cal WHERE day BETWEEN ?2 AND ?3)
  SELECT ${key} AS key, sum(working) AS working_minutes, sum(booked) / 60000 AS booked_minutes,
    sum(blocked) / 60000 AS blocked_minutes
  FROM facts GROUP BY 1 ORDER BY 1`;
}

const NO_SHOW_KEY: Record<string, string> = {
  service: "bs.service_id",
  staffer: "bs.staffer_id",
  customer: "b.customer_id",
};

export function rawNoShows(groupBy: string): string {
  const didntCome = "(b.is_canceled = 1 AND b.cancel_reason = 'didnt_come')";
  const window = `coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = b.id), 1440)`;
  const late = `(b.is_canceled = 1 AND coalesce(b.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (b.cancel_charges_fee = 1 OR coalesce(b.canceled_at, 0) >= b.start_at - 60000 * ${window}))`;
  const fees = `coalesce((SELECT sum(p.amount) FROM payments p WHERE p.booking_id = b.id AND p.kind IN ('late_cancel_fee', 'no_show_fee') AND p.status = 'succeeded'), 0) + coalesce((SELECT bp.fee_kept FROM booking_payments bp WHERE bp.booking_id = b.id), 0)`;
  return `SELECT ${NO_SHOW_KEY[groupBy]} AS key,
    sum(b.is_canceled = 0 OR ${didntCome} OR ${late}) AS bookings, sum(${didntCome}) AS didnt_come,
    sum(${late}) AS late_cancels, sum(${fees}) AS fees
  FROM bookings b JOIN booking_services bs ON bs.booking_id = b.id
  WHERE b.location_id = ?1 AND ${localDay("b.start_at")} BETWEEN ?2 AND ?3
  GROUP BY 1 ORDER BY 1`;
}

export function rawReport(report: Report, groupBy: string): string {
  if (report === "revenue") return rawRevenue(groupBy);
  if (report === "utilization") return rawUtilization(groupBy);
  return rawNoShows(groupBy);
}
