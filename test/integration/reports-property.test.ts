import fc from "fast-check";
import { Temporal } from "temporal-polyfill";
import { afterEach, describe, expect, it, vi } from "vitest";
import { saleLinesOf } from "../../src/app/sale-lines";
import { createDb } from "../../src/db/client";
import { readRawRows } from "../../src/reports/queries/raw-reads";
import type { Rollups } from "../../src/reports/rules/raw-rows";
import { rollupsFromRaw } from "../../src/reports/rules/rollups-from-raw";
import { everyShard } from "../helpers/every-shard";
import {
  createLocation,
  createStaffer,
  createWorkspace,
  type TestWorkspace,
} from "../helpers/factory";
import { admin } from "../helpers/http";
import {
  compared,
  expectedNoShows,
  expectedRevenue,
  expectedUtilization,
} from "../helpers/reports-brute";
import { dateOfDay, dayOfDate } from "../../src/reports/rules/days";
import { createAccount, createGood } from "../helpers/shop";

/**
 * Random histories built through HTTP at one location (a DST zone or a non-hour
 * offset), around its local midnights; then the rollups the triggers and the
 * order batches kept must equal the brute force over the raw rows
 * (rollupsFromRaw), and a rebuild from scratch must leave them as they were.
 */

const ZONES = [
  { zone: "Asia/Kolkata", base: "2031-03-07" },
  { zone: "America/New_York", base: "2031-03-07" },
  { zone: "Australia/Lord_Howe", base: "2031-04-04" },
] as const;

const EVERY_DAY = (locationId: string) =>
  [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
    location_uuid: locationId,
    weekday,
    start: "00:00",
    end: "23:59",
  }));

interface Place {
  ws: TestWorkspace;
  zone: string;
  base: string;
  location: { uuid: string };
  staffers: { uuid: string }[];
  seller: { uuid: string };
  cut: { uuid: string };
  colour: { uuid: string };
  yoga: { uuid: string };
  tills: { uuid: string }[];
  shampoo: { uuid: string };
  giftCard: { uuid: string };
  /** Gift card codes sold so far (with what is left on them), for later payments. */
  codes: string[];
}

async function createPlace(zone: string, base: string): Promise<Place> {
  const ws = await createWorkspace({ timezone: zone, currency: "USD", country: "US" });
  const location = await createLocation(ws, { timezone: zone });
  const staffers = [];
  for (let i = 0; i < 2; i++)
    staffers.push(
      await createStaffer(ws, [location.uuid], {
        first_name: `Staff ${i}`,
        schedule: EVERY_DAY(location.uuid),
      }),
    );
  const seller = await createStaffer(ws, [location.uuid], {
    first_name: "Sam",
    permissions: ["access-pos"],
  });
  const service = async (body: Record<string, unknown>) => {
    const res = await ws.api("/services", { method: "POST", body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { uuid: string };
  };
  const cut = await service({
    name: "Haircut",
    duration: 45,
    price: 3500,
    is_pause: true,
    pause: 15,
  });
  const colour = await service({
    name: "Colouring",
    duration: 90,
    price: 8900,
    price_discount: 7900,
  });
  const yoga = await service({ name: "Yoga", duration: 60, price: 1500, capacity: 4 });
  const tills = [
    await createAccount(ws, location.uuid, "cash"),
    await createAccount(ws, location.uuid, "card"),
  ];
  const shampoo = await createGood(ws, { name: "Shampoo", article: "SH-1", price: 1250 });
  const template = await admin(`/workspaces/${ws.id}/voucher-templates`, {
    method: "POST",
    body: { name: "Gift card 50", price: 5000 },
  });
  expect(template.status).toBe(201);
  return {
    ws,
    zone,
    base,
    location,
    staffers,
    seller,
    cut,
    colour,
    yoga,
    tills,
    shampoo,
    giftCard: template.body,
    codes: [],
  };
}

/** Local times near midnight (and one at noon), as minutes of the day. */
const MINUTE = fc.constantFrom(
  0,
  10,
  30,
  12 * 60,
  21 * 60,
  22 * 60 + 30,
  23 * 60 + 15,
  23 * 60 + 50,
);
const DAY = fc.integer({ min: 0, max: 3 });

const BookingOp = fc.record({
  op: fc.constant("booking" as const),
  day: DAY,
  minute: fc.constantFrom(0, 10, 30, 12 * 60, 20 * 60, 21 * 60, 22 * 60),
  kind: fc.constantFrom("one", "two", "group"),
  seats: fc.integer({ min: 1, max: 3 }),
  staffer: fc.integer({ min: 0, max: 1 }),
  fate: fc.constantFrom(
    "keep",
    "complete",
    "complete_part",
    "complete_voucher",
    "cancel_timely",
    "cancel_late",
    "didnt_come",
    "didnt_come_fee",
    "charge_fee",
    "spam",
  ),
  actMinute: MINUTE,
  till: fc.integer({ min: 0, max: 1 }),
});
const OrderOp = fc.record({
  op: fc.constant("order" as const),
  day: DAY,
  minute: MINUTE,
  goods: fc.integer({ min: 0, max: 3 }),
  voucher: fc.boolean(),
  service: fc.boolean(),
  discount: fc.constantFrom(null, { mode: "percent", percent: 7 }, { mode: "fixed", amount: 333 }),
  till: fc.integer({ min: 0, max: 1 }),
  refund: fc.option(MINUTE, { nil: null }),
  byVoucher: fc.boolean(),
});
const BlockOp = fc.record({
  op: fc.constant("block" as const),
  day: DAY,
  minute: MINUTE,
  length: fc.integer({ min: 5, max: 240 }),
  staffer: fc.integer({ min: 0, max: 1 }),
});
const History = fc.array(fc.oneof(BookingOp, BookingOp, OrderOp, BlockOp), {
  minLength: 4,
  maxLength: 10,
});
type Op = typeof BookingOp extends fc.Arbitrary<infer T> ? T : never;
type AnyOp = typeof History extends fc.Arbitrary<(infer T)[]> ? T : never;

/** The instant of a local day (from the base date) and minute, in the place's zone. */
const instantOf = (p: Place, day: number, minute: number) =>
  Temporal.PlainDate.from(p.base)
    .add({ days: day })
    .toZonedDateTime({
      timeZone: p.zone,
      plainTime: Temporal.PlainTime.from({ hour: Math.floor(minute / 60), minute: minute % 60 }),
    })
    .toInstant().epochMilliseconds;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, "Z");

let phone = 1000;
const customerFields = () => ({
  customer_phone: `+1 212 555 ${String(phone++).padStart(4, "0")}`,
  customer_first_name: "Ann",
  customer_last_name: "Lee",
});

const tally: Record<string, number> = {};
const count = (what: string, status: number) => {
  const k = `${what} ${status}`;
  tally[k] = (tally[k] ?? 0) + 1;
};

async function runBooking(p: Place, op: Op) {
  const start = instantOf(p, op.day + 2, op.minute);
  vi.setSystemTime(start - 3 * 86_400_000);
  const staffer = p.staffers[op.staffer]?.uuid;
  const made =
    op.kind === "two"
      ? await p.ws.api("/bookings/cart", {
          method: "POST",
          body: {
            location_uuid: p.location.uuid,
            items: [
              {
                datetime_start: iso(start),
                services: [
                  { service_uuid: p.cut.uuid, staffer_uuid: staffer },
                  { service_uuid: p.colour.uuid, staffer_uuid: p.staffers[1 - op.staffer]?.uuid },
                ],
              },
            ],
            ...customerFields(),
          },
        })
      : await p.ws.api("/bookings", {
          method: "POST",
          body: {
            location_uuid: p.location.uuid,
            service_uuid: op.kind === "group" ? p.yoga.uuid : p.cut.uuid,
            reserved_on: iso(start),
            staffer_uuid: staffer,
            ...(op.kind === "group" ? { quantity: op.seats } : {}),
            ...customerFields(),
          },
        });
  count(`book ${op.kind}`, made.status);
  if (made.status !== 201) return;
  // A group session of several bookings: the others join the first's session (counted once).
  if (op.kind === "group")
    for (let seat = 1; seat < op.seats; seat++) {
      const joined = await p.ws.api("/bookings", {
        method: "POST",
        body: {
          location_uuid: p.location.uuid,
          service_uuid: p.yoga.uuid,
          reserved_on: iso(start),
          staffer_uuid: staffer,
          ...customerFields(),
        },
      });
      count("join group", joined.status);
    }
  const id: string = op.kind === "two" ? made.body.bookings[0].uuid : made.body.uuid;
  const act = instantOf(p, op.day + 2, op.actMinute);
  // A timely cancel two days ahead; anything else at the act's local time on the booking's day.
  vi.setSystemTime(op.fate === "cancel_timely" ? start - 2 * 86_400_000 : act);
  const cancel = (body: Record<string, unknown>) =>
    p.ws.api(`/bookings/${id}/status/cancel`, { method: "PUT", body });
  const till = p.tills[op.till]?.uuid;
  const res = await {
    keep: async () => null,
    complete: () =>
      p.ws.api(`/bookings/${id}/status/complete`, { method: "PUT", body: { account_uuid: till } }),
    complete_part: () =>
      p.ws.api(`/bookings/${id}/status/complete`, {
        method: "PUT",
        body: { account_uuid: till, paid_amount: 1000 },
      }),
    complete_voucher: () =>
      p.ws.api(`/bookings/${id}/status/complete`, {
        method: "PUT",
        body: {
          account_uuid: till,
          ...(p.codes.length > 0 ? { vouchers: [{ code: p.codes[0], amount: 700 }] } : {}),
        },
      }),
    cancel_timely: () => cancel({}),
    cancel_late: () => cancel({ cancel_reason: "other" }),
    didnt_come: () => cancel({ cancel_reason: "didnt_come" }),
    didnt_come_fee: () => cancel({ cancel_reason: "didnt_come", charge_fee: true }),
    charge_fee: () => cancel({ cancel_reason: "canceled", charge_fee: true }),
    spam: () => cancel({ cancel_reason: "spam" }),
  }[op.fate]();
  if (res) count(op.fate, res.status);
}

async function runOrder(p: Place, op: Extract<AnyOp, { op: "order" }>) {
  const paidAt = instantOf(p, op.day, op.minute);
  vi.setSystemTime(paidAt - 60_000);
  const body: Record<string, unknown> = {
    location_uuid: p.location.uuid,
    staffer_uuid: p.seller.uuid,
    goods: op.goods > 0 ? [{ good_uuid: p.shampoo.uuid, price: 1250, quantity: op.goods }] : [],
    vouchers: op.voucher
      ? [{ voucher_template_uuid: p.giftCard.uuid, price: 4999, quantity: 1 }]
      : [],
    services: op.service
      ? [{ service_uuid: p.cut.uuid, price: 3333, quantity: 1, staffer_uuid: p.staffers[0]?.uuid }]
      : [],
    ...(op.discount?.mode === "percent"
      ? { discount_mode: "percent", discount_percent: op.discount.percent }
      : op.discount?.mode === "fixed"
        ? { discount_mode: "fixed", discount_amount: op.discount.amount }
        : {}),
  };
  const opened = await p.ws.api("/orders", { method: "POST", body });
  count("order", opened.status);
  if (opened.status !== 201) return;
  vi.setSystemTime(paidAt);
  const pay = (body: Record<string, unknown>) =>
    p.ws.api(`/orders/${opened.body.uuid}/pay`, { method: "POST", body });
  const code = op.byVoucher ? p.codes.shift() : undefined;
  // A gift card alone when it covers the order (method `voucher`), else with a till.
  let paid = code ? await pay({ vouchers: [{ code }] }) : null;
  if (code) count("pay by voucher", paid?.status ?? 0);
  if (!paid || paid.status !== 200)
    paid = await pay({
      account_uuid: p.tills[op.till]?.uuid,
      ...(code ? { vouchers: [{ code }] } : {}),
    });
  count("pay", paid.status);
  // A refund voids the gift cards the order sold: only an order kept leaves codes to pay with.
  if (paid.status === 200 && op.refund === null)
    for (const v of (paid.body.vouchers ?? []) as { codes: string[] }[]) p.codes.push(...v.codes);
  if (paid.status !== 200 || op.refund === null) return;
  vi.setSystemTime(instantOf(p, op.day + 1, op.refund));
  const refunded = await p.ws.api(`/orders/${opened.body.uuid}/refund`, {
    method: "POST",
    body: {},
  });
  count("refund", refunded.status);
}

async function runBlock(p: Place, op: Extract<AnyOp, { op: "block" }>) {
  const start = instantOf(p, op.day, op.minute);
  vi.setSystemTime(start - 86_400_000);
  const res = await p.ws.api(`/staffers/${p.staffers[op.staffer]?.uuid}/blocked-spots`, {
    method: "POST",
    body: {
      location_uuid: p.location.uuid,
      starts_at: iso(start),
      ends_at: iso(start + op.length * 60_000),
    },
  });
  count("block", res.status);
}

type Row = Record<string, unknown>;
const numbersOf = (r: Row) =>
  Object.entries(r).filter(
    ([k]) =>
      !["day", "dim", "key", "staffer_id", "location_id", "workspace_id", "changes"].includes(k),
  );
const keyed = (rows: Row[], key: (r: Row) => string) =>
  Object.fromEntries(
    rows
      .filter((r) => numbersOf(r).some(([, v]) => v !== 0))
      .map((r) => [key(r), Object.fromEntries(numbersOf(r))]),
  );

/** The kept rollup rows of a location, keyed, rows all zero left out, `changes` ignored. */
async function keptRollups(locationId: string) {
  const all = async (table: string) =>
    (
      await everyShard
        .prepare(`select * from ${table} where location_id = ?`)
        .bind(locationId)
        .all<Row>()
    ).results;
  return {
    revenue: keyed(await all("report_revenue_days"), (r) => `${r.dim}|${r.day}|${r.key}`),
    calendar: keyed(await all("report_calendar_days"), (r) => `${r.day}|${r.staffer_id}`),
    bookings: keyed(await all("report_booking_days"), (r) => `${r.dim}|${r.day}|${r.key}`),
  };
}

const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const asColumns = (r: object): Row =>
  Object.fromEntries(Object.entries(r).map(([k, v]) => [snake(k), v]));

/** rollupsFromRaw over the raw rows as stored, in the same shape as `keptRollups`. */
async function bruteForce(p: Place) {
  const scope = { db: createDb(everyShard as unknown as D1Database), workspaceId: p.ws.id };
  const raw = await readRawRows(scope, p.location.uuid);
  const linesOf = (id: string) => raw.orderLines.filter((l) => l.orderId === id);
  const servicesOf = (orderId: string) =>
    raw.bookingServices.filter(
      (s) => raw.bookings.find((b) => b.id === s.bookingId)?.orderId === orderId,
    );
  const r: Rollups = rollupsFromRaw({
    ...raw,
    locationId: p.location.uuid,
    orders: raw.orders.map((o) => ({
      ...o,
      lines: saleLinesOf(o, linesOf(o.id), servicesOf(o.id)),
    })),
  });
  return {
    rollups: r,
    keyed: {
      revenue: keyed(r.revenue.map(asColumns), (x) => `${x.dim}|${x.day}|${x.key}`),
      calendar: keyed(r.calendar.map(asColumns), (x) => `${x.day}|${x.staffer_id}`),
      bookings: keyed(r.bookings.map(asColumns), (x) => `${x.dim}|${x.day}|${x.key}`),
    },
  };
}

/** Each report in each grouping, as GET /reports/* answers it, against the brute force. */
async function compareReports(p: Place, r: Rollups) {
  const first = dayOfDate(p.base) ?? 0;
  const from = dateOfDay(first - 2);
  const to = dateOfDay(first + 8);
  const get = async (report: string, group: string) => {
    const res = await p.ws.api(
      `/reports/${report}?location_uuid=${p.location.uuid}&from=${from}&to=${to}&group_by=${group}`,
    );
    expect(res.status, `${report} ${group}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body as { data: Record<string, unknown>[]; totals: Record<string, unknown> };
  };
  for (const group of ["day", "week", "month", "staffer", "service", "payment_method"]) {
    const body = await get("revenue", group);
    const want = expectedRevenue(r, group, from, to);
    const c = compared(body.data, want);
    expect(c.got, `revenue by ${group} in ${p.zone}`).toEqual(c.want);
    if (["day", "week", "month"].includes(group)) {
      // Every period of the range listed, in order; the totals are the day's sums.
      expect(body.data.map((d) => d.key)).toEqual(Object.keys(want));
      for (const [field, value] of Object.entries(body.totals))
        if (typeof value === "number")
          expect(value, `revenue totals ${field}`).toBe(
            Object.values(want).reduce((a, n) => a + (n[field] ?? 0), 0),
          );
    }
  }
  for (const group of ["service", "staffer", "customer"]) {
    const c = compared((await get("no-shows", group)).data, expectedNoShows(r, group, from, to));
    expect(c.got, `no-shows by ${group} in ${p.zone}`).toEqual(c.want);
  }
  const scheduled = p.staffers.map((s) => s.uuid);
  for (const group of ["staffer", "day"]) {
    const want = expectedUtilization(r, group, from, to, scheduled, 23 * 60 + 59);
    const c = compared((await get("utilization", group)).data, want);
    expect(c.got, `utilization by ${group} in ${p.zone}`).toEqual(c.want);
  }
}

afterEach(() => vi.useRealTimers());

describe("reports vs a brute force over raw rows", () => {
  it("random histories around local midnights: kept rollups = brute force = rebuilt", async () => {
    let run = 0;
    const seen = { revenue: 0, calendar: 0, bookings: 0 };
    await fc.assert(
      fc.asyncProperty(History, async (history) => {
        const { zone, base } = ZONES[run++ % ZONES.length] ?? ZONES[0];
        vi.useFakeTimers({ toFake: ["Date"] });
        vi.setSystemTime(Date.parse(`${base}T00:00:00Z`) - 7 * 86_400_000);
        const p = await createPlace(zone, base);
        for (const op of history) {
          if (op.op === "booking") await runBooking(p, op);
          else if (op.op === "order") await runOrder(p, op);
          else await runBlock(p, op);
        }
        vi.useRealTimers();
        const kept = await keptRollups(p.location.uuid);
        for (const table of ["revenue", "calendar", "bookings"] as const)
          seen[table] += Object.keys(kept[table]).length;
        const brute = await bruteForce(p);
        expect(kept, zone).toEqual(brute.keyed);
        await compareReports(p, brute.rollups);
        const rebuilt = await admin(`/workspaces/${p.ws.id}/reports/rebuild`, { method: "POST" });
        expect(rebuilt.status, JSON.stringify(rebuilt.body)).toBe(200);
        expect(rebuilt.body.locations).toBe(1);
        expect(await keptRollups(p.location.uuid), zone).toEqual(kept);
      }),
      { numRuns: 9, endOnFailure: true },
    );
    console.log("history outcomes", JSON.stringify(tally), "rollup rows", JSON.stringify(seen));
    // The histories counted something in every rollup (not equal because both were empty).
    expect(Math.min(seen.revenue, seen.calendar, seen.bookings)).toBeGreaterThan(20);
  }, 180_000);
});
