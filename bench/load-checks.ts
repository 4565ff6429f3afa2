import { expectedTotals, type Line, type Terms } from "./load-money";
import { type auditSalon, ROOM_UNITS, type Salon } from "./load-salon";
import { queryD1 } from "./server";

/**
 * The invariants of `npm run load`, per workspace, from the databases `wrangler dev` left (read
 * once it stopped): no overlapping live bookings per staffer and per room unit, D1's calendar
 * entries equal to the live booked services and their resource_ids, the room's block entries
 * equal to its blocks, every booking a 201 answered present and no other, none both completed
 * and canceled, money credited at most once per booking, every outbox event delivered once,
 * every order's total equal to what this script computes on its own, and the workspace's rows
 * on its own shard only (none in the directory or on another shard).
 */

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

/** Tables that hold a workspace's own rows (never the directory's, never another shard's). */
const TENANT_TABLES = [
  "locations",
  "staffers",
  "services",
  "resources",
  "goods",
  "accounts",
  "promocodes",
  "webhooks",
  "customers",
  "bookings",
  "booking_services",
  "calendar_entries",
  "resource_blocks",
  "orders",
  "order_lines",
  "account_transactions",
  "events",
  "webhook_deliveries",
  "messages",
];

interface Rows {
  events: { workspace_id: string; id: string }[];
  overlaps: { workspace_id: string; n: number }[];
  bookings: {
    workspace_id: string;
    id: string;
    order_id: string;
    is_canceled: number;
    is_completed: number;
  }[];
  services: {
    workspace_id: string;
    booking_id: string;
    service_id: string;
    staffer_id: string;
    reserved_on: number;
    reserved_until: number;
    buffer: number;
    quantity: number;
    price: number;
    tax_rate_bp: number | null;
    resource_ids: string;
  }[];
  entries: {
    workspace_id: string;
    staffer_id: string;
    source_id: string;
    starts_at: number;
    ends_at: number;
  }[];
  orders: {
    workspace_id: string;
    id: string;
    kind: "booking" | "pos";
    status: string;
    total: number;
    account_paid_amount: number;
    discount_mode: "fixed" | "percent" | null;
    discount_amount: number;
    discount_percent: number | null;
    promocode: string | null;
    promocode_discount_amount: number | null;
  }[];
  lines: {
    workspace_id: string;
    order_id: string;
    kind: string;
    unit_price: number;
    quantity: number;
    tax_rate_bp: number | null;
  }[];
  transactions: {
    workspace_id: string;
    order_id: string | null;
    booking_id: string | null;
    amount: number;
  }[];
  units: {
    workspace_id: string;
    resource_id: string;
    unit: number;
    kind: string;
    source_id: string;
    starts_at: number;
    ends_at: number;
    expires_at: number | null;
  }[];
  blocks: {
    workspace_id: string;
    id: string;
    resource_id: string;
    unit: number | null;
    starts_at: number;
    ends_at: number;
  }[];
  /** Rows of the tenant tables, per table and workspace, on this database. */
  resident: { workspace_id: string; n: number }[];
  /** The workspaces' own rows on this database, with their placement. */
  placed: { id: string; placement: string }[];
}

/** What one database holds of the run's workspaces: everything the checks read. */
export function readDatabase(
  persist: string,
  config: string,
  database: string,
  everyWorkspace: string[],
): Rows {
  const list = (ids: string[]) => ids.map((id) => `'${id}'`).join(",") || "''";
  const w = `workspace_id in (${list(everyWorkspace)})`;
  const [
    events = [],
    overlaps = [],
    bookings = [],
    services = [],
    entries = [],
    orders = [],
    lines = [],
    transactions = [],
    units = [],
    blocks = [],
    placed = [],
    ...perTable
  ] = queryD1(
    persist,
    [
      `select workspace_id, id from events where ${w}`,
      `select a.workspace_id, count(*) as n from booking_services a join bookings ba on ba.id = a.booking_id and ba.is_canceled = 0
         join booking_services b on b.staffer_id = a.staffer_id and a.id < b.id
         join bookings bb on bb.id = b.booking_id and bb.is_canceled = 0
        where a.${w} and a.reserved_on < b.reserved_until + b.buffer * 60000 and b.reserved_on < a.reserved_until + a.buffer * 60000
        group by a.workspace_id`,
      `select workspace_id, id, order_id, is_canceled, is_completed from bookings where ${w}`,
      `select workspace_id, booking_id, service_id, staffer_id, reserved_on, reserved_until, buffer, quantity, price, tax_rate_bp, resource_ids from booking_services where ${w}`,
      `select workspace_id, staffer_id, source_id, starts_at, ends_at from calendar_entries where ${w} and kind = 'booking' and staffer_id is not null`,
      `select workspace_id, id, kind, status, total, account_paid_amount, discount_mode, discount_amount, discount_percent, promocode, promocode_discount_amount from orders where ${w}`,
      `select workspace_id, order_id, kind, unit_price, quantity, tax_rate_bp from order_lines where ${w} order by order_id, position`,
      `select workspace_id, order_id, booking_id, amount from account_transactions where ${w}`,
      `select workspace_id, resource_id, unit, kind, source_id, starts_at, ends_at, expires_at from calendar_entries where ${w} and resource_id is not null`,
      `select workspace_id, id, resource_id, unit, starts_at, ends_at from resource_blocks where ${w}`,
      `select id, placement from workspaces where id in (${list(everyWorkspace)})`,
      // One statement a table: D1 refuses a compound SELECT of this many terms.
      ...TENANT_TABLES.map(
        (t) => `select workspace_id, count(*) as n from ${t} where ${w} group by workspace_id`,
      ),
    ],
    { database, config },
  );
  return {
    events,
    overlaps,
    bookings,
    services,
    entries,
    orders,
    lines,
    transactions,
    units,
    blocks,
    resident: (perTable as { workspace_id: string; n: number }[][]).flat(),
    placed,
  } as Rows;
}

const mine = <T extends { workspace_id: string }>(rows: T[], ws: string) =>
  rows.filter((r) => r.workspace_id === ws);

const group = <T>(rows: T[], by: (row: T) => string | null) => {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const k = by(row);
    if (k !== null) out.set(k, [...(out.get(k) ?? []), row]);
  }
  return out;
};
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const entryKey = (staffer: string, booking: string, start: number, end: number) =>
  `${staffer}|${booking}|${start}|${end}`;
const sameList = (a: string[], b: string[]) =>
  a.length === b.length && a.every((k, i) => k === b[i]);

/** Every check of one workspace, against the rows of its own shard and where the others hold it. */
export function checkSalon(
  salon: Salon,
  home: Rows,
  elsewhere: Map<string, Rows>,
  audit: Awaited<ReturnType<typeof auditSalon>>,
  seen: Map<string, number>,
): Check[] {
  const ws = salon.id;
  const events = mine(home.events, ws);
  const overlaps = mine(home.overlaps, ws)[0]?.n ?? 0;
  const bookings = mine(home.bookings, ws);
  const services = mine(home.services, ws);
  const entries = mine(home.entries, ws);
  const orders = mine(home.orders, ws);
  const lines = mine(home.lines, ws);
  const transactions = mine(home.transactions, ws);
  const unitEntries = mine(home.units, ws);
  const roomBlocks = mine(home.blocks, ws);
  const { tally } = salon;

  const bookingById = new Map(bookings.map((b) => [b.id, b]));
  const servicesOf = group(services, (s) => s.booking_id);
  const bookingsOf = group(bookings, (b) => b.order_id);
  const linesOf = group(lines, (l) => l.order_id);
  const creditsOfBooking = group(transactions, (t) => t.booking_id);
  const creditsOfOrder = group(transactions, (t) => t.order_id);
  /** A set of booked services as order lines: no discounts on booking orders, tax per line. */
  const servicesTotal = (rows: typeof services) =>
    expectedTotals(
      rows.map((s) => ({ unit: s.price, qty: s.quantity, taxBp: s.tax_rate_bp })),
      { mode: null, amount: 0, percent: null, promocode: null },
    ).total;

  // Every booking a 201 answered is in D1, and no other but those of requests whose answer
  // wrangler dev's proxy lost (each book or cart here makes one booking).
  const missingBookings = [...salon.created].filter((id) => !bookingById.has(id)).length;
  const unknownBookings = bookings.filter((b) => !salon.created.has(b.id)).length;
  const lostBookings = tally.lostOf("book", "cart");

  // Lifecycle state.
  const completedAndCanceled = bookings.filter((b) => b.is_completed && b.is_canceled).length;
  const completed = bookings.filter((b) => b.is_completed).length;
  const canceled = bookings.filter((b) => b.is_canceled).length;

  // D1's calendar entries are exactly the live booked services (with their buffers).
  const liveServices = services.filter((s) => !bookingById.get(s.booking_id)?.is_canceled);
  const expectedEntries = liveServices
    .map((s) =>
      entryKey(s.staffer_id, s.booking_id, s.reserved_on, s.reserved_until + s.buffer * 60_000),
    )
    .sort();
  const actualEntries = entries
    .map((e) => entryKey(e.staffer_id, e.source_id, e.starts_at, e.ends_at))
    .sort();

  // The room: its units' entries of bookings are exactly one per resource in the live booked
  // services' resource_ids, over the service's time and buffer, on a unit that exists; its
  // block entries are one per blocked unit (both units when a block names none); and no two
  // live entries of one unit overlap (blocks may be laid over bookings, so they are left out).
  const expectedUnitEntries = liveServices
    .flatMap((s) =>
      (JSON.parse(s.resource_ids) as string[]).map((r) =>
        entryKey(r, s.booking_id, s.reserved_on, s.reserved_until + s.buffer * 60_000),
      ),
    )
    .sort();
  const actualUnitEntries = unitEntries
    .filter((e) => e.kind === "booking")
    .map((e) => entryKey(e.resource_id, e.source_id, e.starts_at, e.ends_at))
    .sort();
  const unitEntriesOff =
    !sameList(expectedUnitEntries, actualUnitEntries) ||
    unitEntries.some((e) => e.unit < 1 || e.unit > ROOM_UNITS);
  const expectedBlockEntries = roomBlocks
    .flatMap((b) =>
      (b.unit ? [b.unit] : Array.from({ length: ROOM_UNITS }, (_, i) => i + 1)).map((u) =>
        entryKey(`${b.resource_id}#${u}`, b.id, b.starts_at, b.ends_at),
      ),
    )
    .sort();
  const actualBlockEntries = unitEntries
    .filter((e) => e.kind === "blocked")
    .map((e) => entryKey(`${e.resource_id}#${e.unit}`, e.source_id, e.starts_at, e.ends_at))
    .sort();
  const liveUnitEntries = unitEntries
    .filter((e) => e.kind !== "blocked" && (e.expires_at === null || e.expires_at > Date.now()))
    .sort((a, b) =>
      a.resource_id !== b.resource_id
        ? a.resource_id < b.resource_id
          ? -1
          : 1
        : a.unit - b.unit || a.starts_at - b.starts_at,
    );
  let unitOverlaps = 0;
  for (let i = 0; i < liveUnitEntries.length; i++) {
    for (let j = i + 1; j < liveUnitEntries.length; j++) {
      const a = liveUnitEntries[i];
      const b = liveUnitEntries[j];
      if (!a || !b || a.resource_id !== b.resource_id || a.unit !== b.unit) break;
      if (b.starts_at >= a.ends_at) break;
      unitOverlaps++;
    }
  }

  // Booked services as the catalogue defines them (replace service re-derives both).
  const offCatalogue = services.filter((s) => {
    const c = salon.catalogue.get(s.service_id);
    return (
      !c ||
      s.price !== c.price ||
      s.reserved_until - s.reserved_on !== c.minutes * 60_000 ||
      JSON.stringify([...(JSON.parse(s.resource_ids) as string[])].sort()) !==
        JSON.stringify(c.resources)
    );
  }).length;

  // Money on bookings: at most one credit per booking, only for completed bookings, each the
  // booking's own total.
  const creditedTwice = [...creditsOfBooking.values()].filter((t) => t.length > 1).length;
  const creditedOpen = [...creditsOfBooking.keys()].filter(
    (id) => !bookingById.get(id)?.is_completed,
  ).length;
  const completedUncredited = bookings.filter(
    (b) => b.is_completed && !creditsOfBooking.has(b.id),
  ).length;
  const wrongCredits = [...creditsOfBooking].filter(
    ([id, t]) => t[0]?.amount !== servicesTotal(servicesOf.get(id) ?? []),
  ).length;

  // Booking orders: total from their services, paid amount from their credits.
  const bookingOrders = orders.filter((o) => o.kind === "booking");
  const bookingOrderWrongTotal = bookingOrders.filter(
    (o) =>
      o.total !==
      servicesTotal((bookingsOf.get(o.id) ?? []).flatMap((b) => servicesOf.get(b.id) ?? [])),
  ).length;
  const bookingOrderWrongPaid = bookingOrders.filter(
    (o) =>
      o.account_paid_amount !== sum((creditsOfOrder.get(o.id) ?? []).map((t) => t.amount)) ||
      (o.status === "paid") !== (o.account_paid_amount >= o.total && o.account_paid_amount > 0),
  ).length;

  // POS orders: total from the D1 lines and terms, lines and terms as this script sent them,
  // the response's total, and one payment of the whole total.
  const posOrders = orders.filter((o) => o.kind === "pos");
  let posWrongTotal = 0;
  let posNotAsSent = 0;
  let posWrongPayment = 0;
  /** Orders in D1 whose create answer the proxy lost: checked from D1 alone. */
  let unanswered = 0;
  for (const o of posOrders) {
    const stored: Line[] = (linesOf.get(o.id) ?? []).map((l) => ({
      unit: l.unit_price,
      qty: l.quantity,
      taxBp: l.tax_rate_bp,
    }));
    const terms: Terms = {
      mode: o.discount_mode ?? (o.discount_amount > 0 ? "fixed" : null),
      amount: o.discount_amount,
      percent: o.discount_percent,
      promocode: o.promocode,
    };
    const fromD1 = expectedTotals(stored, terms);
    if (fromD1.total !== o.total || fromD1.promo !== (o.promocode_discount_amount ?? 0))
      posWrongTotal++;
    const sent = salon.sentOrders.get(o.id);
    const asSent = sent && expectedTotals(sent.lines, sent.terms);
    if (!sent) unanswered++;
    else if (
      !asSent ||
      asSent.total !== o.total ||
      sent.answered !== o.total ||
      JSON.stringify(sent.lines.map((l) => [l.unit, l.qty])) !==
        JSON.stringify(stored.map((l) => [l.unit, l.qty])) ||
      (sent.terms.promocode?.toLowerCase() ?? null) !== (o.promocode?.toLowerCase() ?? null)
    )
      posNotAsSent++;
    const credits = creditsOfOrder.get(o.id) ?? [];
    const paidRight =
      o.status === "paid"
        ? credits.length === 1 &&
          credits[0]?.amount === o.total &&
          o.account_paid_amount === o.total
        : credits.length === 0 && o.account_paid_amount === 0;
    if (!paidRight) posWrongPayment++;
  }

  const missing = events.filter((e) => !seen.has(e.id)).length;
  const duplicates = events.filter((e) => (seen.get(e.id) ?? 0) > 1).length;

  // Its rows on its own shard, open there, and nowhere else (the directory keeps only its
  // directory row and keys, which are not tenant tables).
  const rowsOf = (rows: Rows) => sum(mine(rows.resident, ws).map((r) => r.n));
  const homeRows = rowsOf(home);
  const strayRows = [...elsewhere].flatMap(([name, rows]) => {
    const n = rowsOf(rows);
    const row = rows.placed.find((p) => p.id === ws);
    return [
      ...(n > 0 ? [`${n} rows on ${name}`] : []),
      ...(row && row.placement !== "directory" ? [`its row on ${name} says ${row.placement}`] : []),
    ];
  });
  const homePlacement = home.placed.find((p) => p.id === ws)?.placement ?? "absent";

  const check = (name: string, ok: boolean, detail: string): Check => ({ name, ok, detail });
  return [
    check("no overlapping live bookings per staffer", overlaps === 0, `overlaps: ${overlaps}`),
    check(
      "every booking answered 201 is in D1, and no other",
      missingBookings === 0 && unknownBookings <= lostBookings,
      `answered 201: ${salon.created.size}, in D1: ${bookings.length}, missing: ${missingBookings}, not answered: ${unknownBookings} (answers lost by the proxy: ${lostBookings})`,
    ),
    check(
      "D1 calendar entries equal the live booked services",
      sameList(expectedEntries, actualEntries),
      `entries: ${actualEntries.length}, live booked services: ${expectedEntries.length}`,
    ),
    check(
      "completes and cancels as answered, none both",
      completedAndCanceled === 0 &&
        completed >= tally.oks("complete") &&
        completed <= tally.oks("complete") + tally.lostOf("complete") &&
        canceled >= tally.oks("cancel") &&
        canceled <= tally.oks("cancel") + tally.lostOf("cancel"),
      `completed: ${completed} (200s: ${tally.oks("complete")}), canceled: ${canceled} (200s: ${tally.oks("cancel")}), both: ${completedAndCanceled}`,
    ),
    check(
      "no overlapping live entries per room unit",
      unitOverlaps === 0,
      `overlaps: ${unitOverlaps}`,
    ),
    check(
      "room unit entries equal the live services' resource_ids",
      !unitEntriesOff,
      `entries: ${actualUnitEntries.length}, resource_ids: ${expectedUnitEntries.length}`,
    ),
    check(
      "room block entries equal the blocks' units",
      sameList(expectedBlockEntries, actualBlockEntries),
      `entries: ${actualBlockEntries.length}, units of ${roomBlocks.length} blocks: ${expectedBlockEntries.length}`,
    ),
    check("booked services as the catalogue says", offCatalogue === 0, `off: ${offCatalogue}`),
    check(
      "each completed booking credited once, its own total",
      creditedTwice + creditedOpen + completedUncredited + wrongCredits === 0,
      `credits: ${creditsOfBooking.size}; twice: ${creditedTwice}, not completed: ${creditedOpen}, uncredited: ${completedUncredited}, wrong amount: ${wrongCredits}`,
    ),
    check(
      "booking orders' totals and payments",
      bookingOrderWrongTotal + bookingOrderWrongPaid === 0,
      `orders: ${bookingOrders.length}; wrong total: ${bookingOrderWrongTotal}, wrong paid: ${bookingOrderWrongPaid}`,
    ),
    check(
      "POS orders as sent, totals as computed here, paid once",
      posWrongTotal + posNotAsSent + posWrongPayment === 0 &&
        posOrders.length - unanswered === salon.sentOrders.size &&
        unanswered <= tally.lostOf("order"),
      `orders: ${posOrders.length} (answered 201: ${salon.sentOrders.size}, answers lost by the proxy: ${tally.lostOf("order")}); wrong total: ${posWrongTotal}, not as sent: ${posNotAsSent}, wrong payment: ${posWrongPayment}`,
    ),
    check(
      "outbox events delivered once each",
      missing + duplicates === 0,
      `events: ${events.length}, not delivered: ${missing}, more than once: ${duplicates}`,
    ),
    check(
      "calendar objects in sync with D1",
      audit.outOfSync.length + audit.unitsOutOfSync.length === 0,
      `staffers out of sync: ${audit.outOfSync.length}/${audit.staffers}, room units: ${audit.unitsOutOfSync.length}/${ROOM_UNITS}`,
    ),
    check(
      "rows on its own shard only, open there",
      homeRows > 0 && homePlacement === "open" && strayRows.length === 0,
      `${homeRows} rows on ${salon.shard} (placement ${homePlacement})${strayRows.length ? `; ${strayRows.join(", ")}` : ""}`,
    ),
  ];
}
