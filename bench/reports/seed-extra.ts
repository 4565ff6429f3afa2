import { orderLines, type Template } from "./seed";
import type { Shape } from "./seed-grid";
import { localDay, seededId } from "./sql";

/**
 * The rest of the year: POS sales of goods (one in 10 with 10 % off, one in 25 refunded two
 * days later), a blocked spot 17:15–18:00 on one staffer-day in five, and the revenue
 * rollup of every seeded order. Parameters: ?1 location, ?2 staffers (JSON array of ids).
 */

const MIN = 60_000;
const offsetAt = (local: string) =>
  `coalesce((SELECT o.offset_ms FROM location_offsets o WHERE o.location_id = ?1 AND o.from_ms <= ${local} - 7200000 ORDER BY o.from_ms DESC LIMIT 1), 0)`;

/** POS orders a day: one per five staffers. */
export const posPerDay = (shape: Shape) => Math.max(1, Math.floor(shape.staffers / 5));

function posWith(shape: Shape): string {
  const Q = posPerDay(shape);
  return `WITH RECURSIVE
  n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${shape.days * Q - 1}),
  staff(x, id) AS (SELECT key, value FROM json_each(?2)),
  g AS (SELECT i, ${shape.firstDay} + i / ${Q} AS day,
    (${shape.firstDay} + i / ${Q}) * 86400000 + (600 + (i % ${Q}) * 20) * 60000 AS local_ms FROM n),
  p AS MATERIALIZED (
    SELECT g.i, g.day, staff.id AS seller, g.local_ms - ${offsetAt("g.local_ms")} AS paid_at,
      500 + 250 * (g.i % 4) AS price, 1 + g.i % 3 AS qty, g.i % 25 = 7 AS refunded,
      CASE WHEN g.i % 10 = 3 THEN (500 + 250 * (g.i % 4)) * (1 + g.i % 3) / 10 ELSE 0 END AS discount,
      CASE g.i % 4 WHEN 0 THEN 'cash_account' WHEN 1 THEN 'card_account' WHEN 2 THEN 'qr_account' ELSE NULL END AS method
    FROM g JOIN staff ON staff.x = (g.i * 7) % ${shape.staffers}
    WHERE (g.day + 3) % 7 <> 6)
`;
}

export function posRows(template: Template, shape: Shape): string[] {
  const W = posWith(shape);
  const orderCols = template.columns.orders ?? [];
  const orderSet: Record<string, string> = {
    id: seededId(0x90, "p.i"),
    kind: "'pos'",
    staffer_id: "p.seller",
    customer_id: "NULL",
    status: "(CASE WHEN p.refunded THEN 'refunded' ELSE 'paid' END)",
    order_number: "2000000 + p.i",
    discount_amount: "p.discount",
    discount_mode: "(CASE WHEN p.discount > 0 THEN 'fixed' END)",
    subtotal: "p.price * p.qty - p.discount",
    tax_total: "0",
    total: "p.price * p.qty - p.discount",
    account_paid_amount: "p.price * p.qty - p.discount",
    payment_method: "p.method",
    created_at: "p.paid_at",
    paid_at: "p.paid_at",
    closed_at: `(CASE WHEN p.refunded THEN p.paid_at + 2 * 1440 * ${MIN} END)`,
    refund_reason: "(CASE WHEN p.refunded THEN 'bench' END)",
    version: "0",
  };
  const pick = (cols: string[], set: Record<string, string>) =>
    cols.map((c) => (c in set ? set[c] : `t.${c}`)).join(", ");
  return [
    `${W}INSERT INTO orders (${orderCols.join(", ")}) SELECT ${pick(orderCols, orderSet)}
      FROM p, orders t WHERE t.id = '${template.orderId}'`,
    W +
      orderLines({
        id: seededId(0x91, "p.i"),
        order_id: seededId(0x90, "p.i"),
        kind: "'good'",
        ref_id: "'bench-good-' || (p.i % 4)",
        booking_id: "NULL",
        name: "'Good ' || (p.i % 4)",
        unit_price: "p.price",
        quantity: "p.qty",
        staffer_id: "p.seller",
        from: `p, orders t WHERE t.id = '${template.orderId}'`,
      }),
  ];
}

export function blockedRows(template: Template, shape: Shape): string {
  const { staffers: S, days, firstDay } = shape;
  const cols = template.columns.calendar_entries ?? [];
  const set: Record<string, string> = {
    id: seededId(0xbb, "g.i"),
    staffer_id: "staff.id",
    kind: "'blocked'",
    source_id: seededId(0xbc, "g.i"),
    starts_at: `g.local_ms - ${offsetAt("g.local_ms")}`,
    ends_at: `g.local_ms - ${offsetAt("g.local_ms")} + 45 * ${MIN}`,
  };
  return `WITH RECURSIVE
  n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${S * days - 1}),
  g AS (SELECT i, i % ${S} AS s, ${firstDay} + i / ${S} AS day,
    (${firstDay} + i / ${S}) * 86400000 + (17 * 60 + 15) * 60000 AS local_ms FROM n),
  staff(x, id) AS (SELECT key, value FROM json_each(?2))
  INSERT INTO calendar_entries (${cols.join(", ")})
  SELECT ${cols.map((c) => (c in set ? set[c] : `t.${c}`)).join(", ")}
  FROM g JOIN staff ON staff.x = g.s, calendar_entries t
  WHERE t.source_id = '${template.bookingId}' AND t.kind = 'booking'
    AND (g.day + 3) % 7 <> 6 AND (g.s + g.day) % 5 = 0`;
}

/**
 * What the batches that pay, refund and complete the seeded orders add to the revenue
 * rollup (saleEntries, refundEntries, completedEntries through revenueRollup), summed per
 * rollup row in one statement: each POS line's gross under its kind and its discount share
 * (every seeded POS order has one line: the order's discount), and each booked service of a
 * booking order at its price (booking orders have no lines and no order discount), at the paid day, its net under
 * refunds at the refund day, a completion at the complete's day; each under the day's
 * total, the line's staffer and service, and the order's method. Parameters: ?1 location,
 * ?2 workspace.
 */
export function revenueRollupOfOrders(): string {
  const gross = "l.unit_price * l.quantity";
  const facts = `
  SELECT o.paid_at AS at, l.staffer_id AS staffer, CASE WHEN l.kind = 'service' THEN l.ref_id END AS service,
    o.payment_method AS method, 0 AS bc, CASE WHEN l.kind = 'service' THEN ${gross} ELSE 0 END AS sa,
    CASE WHEN l.kind = 'good' THEN ${gross} ELSE 0 END AS ga, 0 AS rf, o.discount_amount AS dc
  FROM orders o JOIN order_lines l ON l.order_id = o.id
  WHERE o.location_id = ?1 AND o.paid_at IS NOT NULL AND o.order_number >= 1000000
  UNION ALL
  SELECT o.paid_at, bs.staffer_id, bs.service_id, o.payment_method, 0, bs.price * bs.quantity, 0, 0, 0
  FROM orders o JOIN bookings b ON b.order_id = o.id JOIN booking_services bs ON bs.booking_id = b.id
  WHERE o.location_id = ?1 AND o.kind = 'booking' AND o.paid_at IS NOT NULL AND o.order_number >= 1000000
  UNION ALL
  SELECT o.closed_at, l.staffer_id, CASE WHEN l.kind = 'service' THEN l.ref_id END, o.payment_method,
    0, 0, 0, ${gross} - o.discount_amount, 0
  FROM orders o JOIN order_lines l ON l.order_id = o.id
  WHERE o.location_id = ?1 AND o.status = 'refunded' AND o.order_number >= 1000000
  UNION ALL
  SELECT b.completed_at, bs.staffer_id, bs.service_id, o.payment_method, 1, 0, 0, 0, 0
  FROM bookings b JOIN booking_services bs ON bs.booking_id = b.id JOIN orders o ON o.id = b.order_id
  WHERE b.location_id = ?1 AND b.is_completed = 1 AND o.order_number >= 1000000`;
  return `WITH facts AS (${facts}),
  dims(dim) AS (VALUES ('day'), ('staffer'), ('service'), ('payment_method')),
  keyed AS (
    SELECT dims.dim, ${localDay("facts.at")} AS day,
      CASE dims.dim WHEN 'day' THEN '' WHEN 'staffer' THEN coalesce(staffer, '')
        WHEN 'service' THEN coalesce(service, '') ELSE coalesce(method, '') END AS key,
      bc, sa, ga, rf, dc
    FROM facts, dims)
  INSERT INTO report_revenue_days (location_id, dim, day, key, workspace_id, bookings_completed,
    services_amount, goods_amount, refunds, discounts, changes)
  SELECT ?1, dim, day, key, ?2, sum(bc), sum(sa), sum(ga), sum(rf), sum(dc), count(*)
  FROM keyed WHERE true GROUP BY dim, day, key
  ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
    bookings_completed = bookings_completed + excluded.bookings_completed,
    services_amount = services_amount + excluded.services_amount,
    goods_amount = goods_amount + excluded.goods_amount,
    refunds = refunds + excluded.refunds, discounts = discounts + excluded.discounts,
    changes = changes + excluded.changes`;
}
