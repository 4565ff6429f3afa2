import {
  bookingsWith,
  CANCELLED,
  COMPLETED,
  FEE,
  LATE_CANCEL,
  METHOD,
  NO_SHOW,
  NO_SHOW_FEE,
  type Shape,
} from "./seed-grid";
import { seededId, type Statement } from "./sql";

/**
 * The year's rows, written the way the app writes them: each table's rows are copies of
 * the rows a real booking made through the API wrote (the template), with their own ids,
 * people, times and outcomes, so every column the bench does not set is one the app
 * would. Plain INSERTs: the triggers of 0038 keep the calendar, booking and fee rollups
 * as they do in production. The orders' sales are added to the revenue rollup by the
 * batch that pays an order (src/reports/queries/revenue-rollup.ts); here one statement
 * adds the same sums for the year's paid and refunded orders (see revenueRollupOfOrders).
 */
export interface Template {
  bookingId: string;
  orderId: string;
  customerId: string;
  /** Each table's columns, in order (PRAGMA table_info). */
  columns: Record<string, string[]>;
}

/** INSERT … SELECT of `table`'s template row, with some columns set from `from`. */
function clone(
  template: Template,
  table: string,
  overrides: Record<string, string>,
  from: string,
  templateWhere: string,
  where = "true",
): string {
  const columns = template.columns[table] ?? [];
  for (const name of Object.keys(overrides))
    if (!columns.includes(name)) throw new Error(`${table} has no column ${name}`);
  const values = columns.map((c) => overrides[c] ?? `t.${c}`);
  return `INSERT INTO ${table} (${columns.join(", ")})
  SELECT ${values.join(", ")} FROM ${from}, ${table} t WHERE ${templateWhere} AND ${where}`;
}

const MIN = 60_000;

/** Order lines, every column spelled out; `from` gives the rows and `t` (a row of the workspace). */
export function orderLines(set: Record<string, string> & { from: string }): string {
  return `INSERT INTO order_lines (id, workspace_id, order_id, kind, ref_id, booking_id, position,
    name, article, unit_price, catalog_price, quantity, staffer_id, tax_name, tax_rate_bp)
  SELECT ${set.id}, t.workspace_id, ${set.order_id}, ${set.kind}, ${set.ref_id}, ${set.booking_id},
    0, ${set.name}, NULL, ${set.unit_price}, ${set.unit_price}, ${set.quantity}, ${set.staffer_id},
    NULL, NULL
  FROM ${set.from}`;
}
const start = "b.start_at";
const end = `(b.start_at + b.minutes * ${MIN})`;
const canceledAt = `(CASE WHEN ${NO_SHOW} THEN ${start} + 30 * ${MIN} WHEN ${LATE_CANCEL} THEN ${start} - 120 * ${MIN} WHEN ${CANCELLED} THEN ${start} - 3 * 1440 * ${MIN} END)`;
const bookingId = seededId(0xb0, "b.i");
const orderId = seededId(0x0d, "b.i");
const customerId = seededId(0xc0, "b.c");

export function customerRows(template: Template, count: number): string {
  return `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${count - 1})
  ${clone(
    template,
    "customers",
    {
      id: seededId(0xc0, "n.i"),
      first_name: `'Customer ' || n.i`,
      phone: `printf('+4915100%06d', n.i)`,
      email: "NULL",
      email_lower: "NULL",
    },
    "n",
    `t.id = '${template.customerId}'`,
  )}`;
}

/** The booking's tables, in the order the foreign keys and triggers need them. */
export function bookingRows(
  template: Template,
  shape: Shape,
  from: number,
  to: number,
): Statement[] {
  const W = bookingsWith(shape, from, to);
  const byBooking = `t.id = '${template.bookingId}'`;
  // A booking order has no order discount: its sale is its booked services at their prices.
  const total = "b.price";
  const paidAt = `(CASE WHEN ${COMPLETED} THEN ${end} END)`;
  return [
    clone(
      template,
      "orders",
      {
        id: orderId,
        customer_id: customerId,
        status: `(CASE WHEN ${CANCELLED} THEN 'cancelled' WHEN ${COMPLETED} THEN 'paid' ELSE 'open' END)`,
        order_number: "1000000 + b.i",
        discount_amount: "0",
        discount_mode: "NULL",
        subtotal: total,
        tax_total: "0",
        total,
        account_paid_amount: `(CASE WHEN ${COMPLETED} THEN ${total} ELSE 0 END)`,
        payment_method: `(CASE WHEN ${COMPLETED} THEN ${METHOD} END)`,
        created_at: `${start} - 7 * 1440 * ${MIN}`,
        paid_at: paidAt,
        closed_at: `(CASE WHEN ${CANCELLED} THEN ${canceledAt} END)`,
        version: "0",
      },
      "b",
      `t.id = '${template.orderId}'`,
    ),
    clone(
      template,
      "bookings",
      {
        id: bookingId,
        customer_id: customerId,
        order_id: orderId,
        start_at: start,
        end_at: end,
        is_canceled: `(CASE WHEN ${CANCELLED} THEN 1 ELSE 0 END)`,
        is_completed: `(CASE WHEN ${COMPLETED} THEN 1 ELSE 0 END)`,
        cancel_reason: `(CASE WHEN ${NO_SHOW} THEN 'didnt_come' WHEN ${CANCELLED} THEN 'canceled' END)`,
        canceled_by: `(CASE WHEN ${CANCELLED} THEN 'staff' END)`,
        canceled_at: canceledAt,
        cancel_charges_fee: `(CASE WHEN ${NO_SHOW_FEE} THEN 1 ELSE 0 END)`,
        completed_at: paidAt,
        // The till the booking was completed with (its order's method), where the column exists.
        ...(template.columns.bookings?.includes("completed_payment_method")
          ? { completed_payment_method: `(CASE WHEN ${COMPLETED} THEN ${METHOD} END)` }
          : {}),
        ical_token: seededId(0x1c, "b.i"),
        created_at: `${start} - 7 * 1440 * ${MIN}`,
        updated_at: `${start} - 7 * 1440 * ${MIN}`,
        version: "0",
      },
      "b",
      byBooking,
    ),
    clone(
      template,
      "booking_services",
      {
        id: seededId(0x5e, "b.i"),
        booking_id: bookingId,
        service_id: "b.service",
        staffer_id: "b.staffer",
        name: "b.name",
        reserved_on: start,
        reserved_until: end,
        duration: "b.minutes",
        original_duration: "b.minutes",
        buffer: "b.buffer",
        price: "b.price",
        original_price: "b.price",
      },
      "b",
      `t.booking_id = '${template.bookingId}'`,
    ),
    // A cancel removes the booking's calendar entry: the kept ones only.
    clone(
      template,
      "calendar_entries",
      {
        id: seededId(0xce, "b.i"),
        staffer_id: "b.staffer",
        source_id: bookingId,
        starts_at: start,
        ends_at: `${end} + b.buffer * ${MIN}`,
      },
      "b",
      `t.source_id = '${template.bookingId}' AND t.kind = 'booking'`,
      `NOT (${CANCELLED})`,
    ),
    `INSERT INTO payments (id, workspace_id, booking_id, kind, amount, currency, status, provider,
      idempotency_key, created_at, updated_at)
    SELECT ${seededId(0xfe, "b.i")}, t.workspace_id, ${bookingId}, 'no_show_fee', ${FEE}, 'EUR',
      'succeeded', 'stripe', 'bench-fee-' || b.i, ${canceledAt}, ${canceledAt}
    FROM b, bookings t WHERE t.id = '${template.bookingId}' AND ${NO_SHOW_FEE}`,
  ].map((sql) => ({ sql: `${W}${sql}` }));
}
