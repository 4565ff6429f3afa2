/**
 * The seeded year as SQL: every statement of the seed starts with this WITH and reads
 * `b`, one row per booking, computed the same way each time (no random: row i's
 * staffer, day, time, service, customer and outcome follow from i), so the bookings,
 * their services, calendar entries, orders and order lines agree without a staging table.
 * Parameters: ?1 location, ?2 staffers (JSON array of ids), ?3 services (JSON array of
 * [id, price, minutes, buffer, name]).
 */
export interface Shape {
  staffers: number;
  /** The first local day number of the year, and how many days. */
  firstDay: number;
  days: number;
  /** Bookings per staffer per working day (Monday–Saturday). */
  perDay: number;
  customers: number;
}

/** A hash of the row number, 0 … 99: spreads the outcomes over staffers and days. */
const hash = (i: string, salt: number) => `(((${i}) * 1103515245 + ${salt}) / 65536) % 100`;

/** Outcome bands of `h`: no-show (the first half charged a fee), late cancel, timely cancel, kept not completed, completed. */
export const NO_SHOW = "b.h < 4";
export const NO_SHOW_FEE = "b.h < 2";
export const LATE_CANCEL = "b.h >= 4 AND b.h < 7";
export const TIMELY_CANCEL = "b.h >= 7 AND b.h < 12";
export const CANCELLED = "b.h < 12";
export const COMPLETED = "b.h >= 14";
export const METHOD = `(CASE (b.i / 3) % 5 WHEN 0 THEN 'cash_account' WHEN 1 THEN 'card_account' WHEN 2 THEN 'qr_account' WHEN 3 THEN 'online_account' ELSE 'voucher' END)`;
export const FEE = 1500;

/** How many row numbers (staffer × day × slot) the year has. */
export const gridSize = (shape: Shape) => shape.staffers * shape.days * shape.perDay;

/** Rows `from` … `to` − 1 of the grid (a chunk of the year: each request stays short). */
export function bookingsWith(shape: Shape, from: number, to: number): string {
  const { staffers: S, firstDay, perDay: P, customers } = shape;
  return `WITH RECURSIVE
  n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i < ${to - 1}),
  staff(x, id) AS (SELECT key, value FROM json_each(?2)),
  svc(x, id, price, minutes, buffer, name) AS (
    SELECT key, value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4 FROM json_each(?3)),
  g AS (SELECT i, i % ${S} AS s, ${firstDay} + (i / ${S}) / ${P} AS day, (i / ${S}) % ${P} AS j FROM n),
  grid AS (
    SELECT g.i, g.s, g.day, staff.id AS staffer, svc.id AS service, svc.price, svc.minutes,
      svc.buffer, svc.name, ${hash("g.i", 12345)} AS h,
      (((g.i * 1103515245 + 777) / 4096) % ${customers}) AS c,
      g.day * 86400000 + (540 + g.j * 180 + ((g.s * 7 + g.day * 13 + g.j * 5) % 4) * 15) * 60000 AS local_ms
    FROM g JOIN staff ON staff.x = g.s JOIN svc ON svc.x = (g.s + g.day + g.j) % 10
    WHERE (g.day + 3) % 7 <> 6),
  b AS MATERIALIZED (
    -- Local 09:00 and later: two hours back is never before the day's offset change.
    SELECT grid.*, grid.local_ms - coalesce((SELECT o.offset_ms FROM location_offsets o
      WHERE o.location_id = ?1 AND o.from_ms <= grid.local_ms - 7200000
      ORDER BY o.from_ms DESC LIMIT 1), 0) AS start_at
    FROM grid)
`;
}
