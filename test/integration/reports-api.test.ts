import { exports } from "cloudflare:workers";
import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { admin, BASE, type Client, d1RoundTrips, PUBLIC } from "../helpers/http";
import {
  createLocation,
  createStaffer,
  createWorkspace,
  type TestWorkspace,
} from "../helpers/factory";
import { createPublishableKey, type PublishableKey } from "../helpers/keys";
import { customer } from "../helpers/salon";
import { createService, everyDay, report } from "../helpers/reports";
import { attachPayment } from "../helpers/paid-booking";
import { until } from "../helpers/messages";
import { shardOf } from "../helpers/every-shard";
import { createDb } from "../../src/db/client";
import { utilizationMatrix } from "../../src/reports/utilization";
import { csvOf } from "../../src/reports/views/csv";

/**
 * The three reports through HTTP, from hand-built histories whose totals are
 * known: every grouping, validation, keys, CSV read back by a strict RFC 4180
 * parser, one D1 round trip each.
 */

const HOUR = 3_600_000;
const WEEK = ["2030-03-04", "2030-03-10"] as const; // Monday..Sunday, Berlin at UTC+1
/** The week's utilization totals, whichever the grouping. */
const WEEK_TIME = {
  working_minutes: 5100,
  booked_minutes: 210,
  blocked_minutes: 240,
  utilization: 0.0412,
};

interface Shop {
  ws: TestWorkspace;
  location: string;
}

const book = async (api: Client, body: Record<string, unknown>) => {
  const res = await api("/bookings", { method: "POST", body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.uuid as string;
};

/** The raw answer (CSV is no JSON), with any Accept. */
const raw = (ws: TestWorkspace, path: string, accept: string) =>
  exports.default.fetch(
    new Request(`${BASE}${PUBLIC}${path}`, {
      headers: { authorization: `Bearer ${ws.apiKey}`, workspace: ws.id, accept },
    }),
  );

/** A location's date (`YYYY-MM-DD`, Berlin) of an instant. */
const berlinDate = (ms: number) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Berlin" }).format(new Date(ms));
const plusDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** A JSON row as its CSV record reads: null empty, numbers as written, formula starts inert. */
const asCsv = (row: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(row).map(([k, v]) => [
      k,
      v === null
        ? ""
        : typeof v === "number"
          ? String(v)
          : /^[=+\-@\t\r]/.test(String(v))
            ? `'${String(v)}`
            : String(v),
    ]),
  );

/** A shard's D1 that counts its round trips: each batch, and each statement run alone. */
function countedTrips(db: D1Database) {
  const counted = { trips: 0 };
  const statement = (s: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(s, {
      get(target, p) {
        const value = Reflect.get(target, p) as unknown;
        if (typeof value !== "function") return value;
        if (p === "bind")
          return (...args: unknown[]) =>
            statement((value as (...a: unknown[]) => D1PreparedStatement).apply(target, args));
        if (["all", "raw", "first", "run"].includes(String(p))) counted.trips += 1;
        return (value as (...a: unknown[]) => unknown).bind(target);
      },
    });
  const wrapped = new Proxy(db, {
    get(target, p) {
      if (p === "prepare") return (q: string) => statement(target.prepare(q));
      if (p === "batch")
        return (list: D1PreparedStatement[]) => {
          counted.trips += 1;
          return target.batch(list);
        };
      const value = Reflect.get(target, p) as unknown;
      return typeof value === "function"
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  });
  return { db: wrapped, counted };
}

const strictCsv = (text: string) =>
  parse(text, {
    columns: true,
    record_delimiter: "\r\n",
    relax_quotes: false,
    relax_column_count: false,
    skip_empty_lines: false,
  }) as Record<string, string>[];

describe("utilization", () => {
  let shop: Shop;
  let ada: string;
  let ben: string;

  beforeAll(async () => {
    const ws = await createWorkspace();
    const location = (await createLocation(ws, { timezone: "Europe/Berlin" })).uuid;
    shop = { ws, location };
    const weekdays = [1, 2, 3, 4, 5].map((weekday) => ({
      location_uuid: location,
      weekday,
      start: "09:00",
      end: "18:00",
    }));
    ada = (
      await createStaffer(ws, [location], {
        first_name: "Ada",
        schedule: weekdays,
        overrides: [
          {
            location_uuid: location,
            date: "2030-03-06",
            intervals: [{ start: "10:00", end: "14:00" }],
          },
        ],
      })
    ).uuid;
    ben = (await createStaffer(ws, [location], { first_name: "Ben", schedule: weekdays })).uuid;
    // No schedule, no calendar time: not a group.
    await createStaffer(ws, [location], { first_name: "Cleo" });
    const trim = await createService(ws, { name: "Trim", duration: 60, price: 2000 });
    const yoga = await createService(ws, { name: "Yoga", duration: 90, price: 1500, capacity: 3 });
    const at = (iso: string, staffer: string, svc: string, phone: string) =>
      book(ws.api, {
        location_uuid: location,
        service_uuid: svc,
        staffer_uuid: staffer,
        reserved_on: iso,
        ...customer(phone),
      });
    await at("2030-03-04T08:00:00Z", ada, trim, "+49 151 20000001"); // Mon 09:00, 60 min
    // Tue 10:00, a session of 90 min with three seats taken: counted once.
    for (const phone of ["+49 151 20000002", "+49 151 20000003", "+49 151 20000004"])
      await at("2030-03-05T09:00:00Z", ada, yoga, phone);
    await at("2030-03-07T11:00:00Z", ben, trim, "+49 151 20000005"); // Thu 12:00, 60 min
    // Fri 22:00 to Sat 02:00: 120 minutes on each day.
    const block = await ws.api(`/staffers/${ben}/blocked-spots`, {
      method: "POST",
      body: {
        location_uuid: location,
        starts_at: "2030-03-08T21:00:00Z",
        ends_at: "2030-03-09T01:00:00Z",
      },
    });
    expect(block.status, JSON.stringify(block.body)).toBe(201);
  });

  const q = (group_by?: string) => ({
    location_uuid: shop.location,
    from: WEEK[0],
    to: WEEK[1],
    ...(group_by ? { group_by } : {}),
  });

  it("by staffer (the default): schedules with the override, a session once, the blocked night", async () => {
    const res = await report(shop.ws, "utilization", q());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      location_uuid: shop.location,
      from: WEEK[0],
      to: WEEK[1],
      group_by: "staffer",
      timezone: "Europe/Berlin",
      currency: "EUR",
    });
    expect(res.body.data).toEqual([
      {
        key: ada,
        label: "Ada",
        working_minutes: 4 * 540 + 240,
        booked_minutes: 150,
        blocked_minutes: 0,
        utilization: 0.0625,
      },
      {
        key: ben,
        label: "Ben",
        working_minutes: 5 * 540,
        booked_minutes: 60,
        blocked_minutes: 240,
        utilization: 0.0222,
      },
    ]);
    expect(res.body.totals).toEqual(WEEK_TIME);
    expect(d1RoundTrips(res.headers)).toBe(1);
  });

  it("by day: every day of the range, null where nobody works", async () => {
    const res = await report(shop.ws, "utilization", q("day"));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const row = (
      key: string,
      working: number,
      booked: number,
      blocked: number,
      u: number | null,
    ) => ({
      key,
      label: key,
      working_minutes: working,
      booked_minutes: booked,
      blocked_minutes: blocked,
      utilization: u,
    });
    expect(res.body.data).toEqual([
      row("2030-03-04", 1080, 60, 0, 0.0556),
      row("2030-03-05", 1080, 90, 0, 0.0833),
      row("2030-03-06", 780, 0, 0, 0),
      row("2030-03-07", 1080, 60, 0, 0.0556),
      row("2030-03-08", 1080, 0, 120, 0),
      row("2030-03-09", 0, 0, 120, null),
      row("2030-03-10", 0, 0, 0, null),
    ]);
    expect(res.body.totals).toEqual(WEEK_TIME);
    expect(d1RoundTrips(res.headers)).toBe(1);
  });

  it("the heat map: utilization per staffer and day, from one batch", async () => {
    const { db, counted } = countedTrips((await shardOf(shop.ws.id)).db);
    const matrix = await utilizationMatrix(
      { db: createDb(db), workspaceId: shop.ws.id },
      { locationId: shop.location, from: WEEK[0], to: WEEK[1] },
    );
    expect(counted.trips).toBe(1);
    expect(matrix).toEqual({
      days: [
        "2030-03-04",
        "2030-03-05",
        "2030-03-06",
        "2030-03-07",
        "2030-03-08",
        "2030-03-09",
        "2030-03-10",
      ],
      staffers: [
        { key: ada, label: "Ada" },
        { key: ben, label: "Ben" },
      ],
      cells: [
        [0.1111, 0.1667, 0, 0, 0, null, null],
        [0, 0, 0, 0.1111, 0, null, null],
      ],
    });
  });

  it("CSV: the same rows, read back by a strict RFC 4180 parser", async () => {
    for (const group_by of ["staffer", "day"]) {
      const json = await report(shop.ws, "utilization", q(group_by));
      for (const accept of ["text/csv", "text/csv; charset=utf-8"]) {
        const res = await raw(
          shop.ws,
          `/reports/utilization?${new URLSearchParams(q(group_by))}`,
          accept,
        );
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
        expect(res.headers.get("vary")).toMatch(/Origin.*Accept|Accept.*Origin/);
        expect(res.headers.get("content-disposition")).toBe(
          `attachment; filename="utilization-${WEEK[0]}-${WEEK[1]}.csv"`,
        );
        const text = await res.text();
        expect(text.split("\r\n")[0]).toBe(
          "key,label,working_minutes,booked_minutes,blocked_minutes,utilization",
        );
        expect(text.endsWith("\r\n")).toBe(true);
        expect(strictCsv(text)).toEqual(json.body.data.map(asCsv));
      }
    }
  });
});

describe("utilization of a group session booked through a reservation", () => {
  // Tue 2030-03-05 10:00 Berlin: a 60-minute session with a 15-minute pause after it.
  const START = "2030-03-05T09:00:00Z";
  const DAY = "2030-03-05";
  let ws: TestWorkspace;
  let location: string;
  let dana: string;
  let pilates: string;
  let pk: PublishableKey;

  beforeAll(async () => {
    ws = await createWorkspace();
    location = (await createLocation(ws, { timezone: "Europe/Berlin" })).uuid;
    dana = (
      await createStaffer(ws, [location], {
        first_name: "Dana",
        schedule: [{ location_uuid: location, weekday: 2, start: "09:00", end: "18:00" }],
      })
    ).uuid;
    pilates = await createService(ws, {
      name: "Pilates",
      duration: 60,
      price: 1500,
      capacity: 4,
      is_pause: true,
      pause: 15,
    });
    pk = await createPublishableKey(ws);
  });

  const widget = (path: string, body: Record<string, unknown>) =>
    pk.api(path, { method: "POST", headers: { origin: "https://salon.example" }, body });
  const hold = async (start = START) => {
    const res = await widget("/reservations", {
      location_uuid: location,
      items: [
        {
          datetime_start: start,
          services: [{ service_uuid: pilates, staffer_uuid: dana, quantity: 1 }],
        },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.uuid as string;
  };
  const bookHeld = async (reservation: string, phone: string, start = START) => {
    const res = await widget("/bookings", {
      location_uuid: location,
      service_uuid: pilates,
      staffer_uuid: dana,
      reserved_on: start,
      reservation_uuid: reservation,
      quantity: 1,
      ...customer(phone),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.uuid as string;
  };
  const danaOn = async () => {
    const res = await report(ws, "utilization", { location_uuid: location, from: DAY, to: DAY });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as Record<string, unknown>[];
  };
  const calendarRows = async () => {
    const { db } = await shardOf(ws.id);
    return (
      await db
        .prepare(
          "select day, staffer_id, booked_ms, blocked_ms from report_calendar_days where location_id = ? and (booked_ms <> 0 or blocked_ms <> 0) order by day, staffer_id",
        )
        .bind(location)
        .all()
    ).results;
  };
  /** Dana's calendar entries at a start, with their session keys. */
  const entriesOf = async (start: string) => {
    const { db } = await shardOf(ws.id);
    return (
      await db
        .prepare(
          "select kind, session_key from calendar_entries where staffer_id = ? and starts_at = ? order by kind",
        )
        .bind(dana, Date.parse(start))
        .all<{ kind: string; session_key: string | null }>()
    ).results;
  };
  const session = { key: "", label: "Dana", working_minutes: 540, blocked_minutes: 0 };

  it("counts the session's time once, with another customer's hold on it, and a rebuild equals the kept rows", async () => {
    const mine = await hold();
    const theirs = await hold();
    // Holds are no booked time.
    expect(await danaOn()).toEqual([{ ...session, key: dana, booked_minutes: 0, utilization: 0 }]);
    await bookHeld(mine, "+49 151 20000101");
    // The booking's seat and the other hold sit on one session of Dana's.
    const entries = await entriesOf(START);
    expect(entries.map((e) => e.kind)).toEqual(["booking", "held"]);
    expect(new Set(entries.map((e) => e.session_key)).size).toBe(1);
    const once = [{ ...session, key: dana, booked_minutes: 75, utilization: 0.1389 }];
    expect(await danaOn()).toEqual(once);
    // The second customer books their hold too: still one session's time.
    await bookHeld(theirs, "+49 151 20000102");
    expect(await danaOn()).toEqual(once);
    const byDay = await report(ws, "utilization", {
      location_uuid: location,
      from: DAY,
      to: DAY,
      group_by: "day",
    });
    expect(byDay.body.totals).toEqual({
      working_minutes: 540,
      booked_minutes: 75,
      blocked_minutes: 0,
      utilization: 0.1389,
    });

    const kept = await calendarRows();
    expect(kept).toHaveLength(1);
    const rebuilt = await admin(`/workspaces/${ws.id}/reports/rebuild?location_uuid=${location}`, {
      method: "POST",
    });
    expect(rebuilt.status, JSON.stringify(rebuilt.body)).toBe(200);
    expect(await calendarRows()).toEqual(kept);
    expect(await danaOn()).toEqual(once);
  });

  it("a hold left on the session beside a booking made from another hold: once", async () => {
    const start = "2030-03-12T09:00:00Z";
    const mine = await hold(start);
    await hold(start); // a second customer's hold, never booked
    await bookHeld(mine, "+49 151 20000103", start);
    const week = await report(ws, "utilization", {
      location_uuid: location,
      from: "2030-03-12",
      to: "2030-03-12",
    });
    expect(week.body.data).toEqual([
      { ...session, key: dana, booked_minutes: 75, utilization: 0.1389 },
    ]);
    const kept = await calendarRows();
    const rebuilt = await admin(`/workspaces/${ws.id}/reports/rebuild?location_uuid=${location}`, {
      method: "POST",
    });
    expect(rebuilt.status, JSON.stringify(rebuilt.body)).toBe(200);
    expect(await calendarRows()).toEqual(kept);
  });
});

describe("no-shows (and the revenue of a no-show fee)", () => {
  let shop: Shop;
  let pk: Client;
  let sam: string;
  let tia: string;
  let trim: string;
  let colour: string;
  let first: string;
  let today: string;
  const ANNA = "+49 151 30000001";
  const BEN = "+49 151 30000002";

  beforeAll(async () => {
    const ws = await createWorkspace();
    const location = (await createLocation(ws, { timezone: "Europe/Berlin" })).uuid;
    shop = { ws, location };
    pk = (await createPublishableKey(ws)).api;
    const always = everyDay(location, "00:00", "24:00");
    sam = (await createStaffer(ws, [location], { first_name: "Sam", schedule: always })).uuid;
    tia = (await createStaffer(ws, [location], { first_name: "Tia", schedule: always })).uuid;
    trim = await createService(ws, { name: "Trim", duration: 60, price: 2000 });
    // A name a spreadsheet would run, with a comma and quotes: the CSV keeps it inert and whole.
    colour = await createService(ws, { name: '=Colour, "deluxe"', duration: 60, price: 5000 });
    // Bookings from the next whole hour plus two: the first is inside 24 hours of now.
    const start = Math.ceil(Date.now() / HOUR) * HOUR + 2 * HOUR;
    first = berlinDate(start);
    today = berlinDate(Date.now());
    const at = (ms: number, svc: string, phone: string, name: string) =>
      book(ws.api, {
        location_uuid: location,
        service_uuid: svc,
        staffer_uuid: sam,
        reserved_on: new Date(ms).toISOString(),
        ...customer(phone),
        customer_first_name: name,
      });
    await at(start + HOUR, trim, ANNA, "Anna"); // kept
    // A booking of two services with two staffers: it counts under each service and staffer.
    const cart = await ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: location,
        items: [
          {
            datetime_start: new Date(start + 5 * HOUR).toISOString(),
            services: [
              { service_uuid: trim, staffer_uuid: sam },
              { service_uuid: colour, staffer_uuid: tia },
            ],
          },
        ],
        ...customer("+49 151 30000003"),
        customer_first_name: "Cleo",
      },
    });
    expect(cart.status, JSON.stringify(cart.body)).toBe(201);
    const noShow = await at(start + 2 * HOUR, trim, ANNA, "Anna");
    const late = await at(start, colour, BEN, "Ben");
    const timely = await at(start + 3 * 24 * HOUR, colour, BEN, "Ben");
    // The customer cancels: inside 24 hours a late cancel, three days ahead not counted at all.
    for (const id of [late, timely]) {
      const res = await pk(`/bookings/${id}/status/cancel`, { method: "PUT", body: {} });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    // A no-show with the fee: 1000 paid online is kept, the other 1500 charged to the card.
    await attachPayment(
      {
        ws,
        location: { uuid: location, name: "", timezone: "Europe/Berlin" },
        staffers: [],
        cut: { uuid: trim, price: 2000 },
        colour: { uuid: colour, price: 5000 },
      },
      noShow,
      { paid: 1000, noShowFee: 2500, lateFee: null, cancelFeeFrom: null },
    );
    const res = await ws.api(`/bookings/${noShow}/status/cancel`, {
      method: "PUT",
      body: { cancel_reason: "didnt_come", charge_fee: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The settlement runs after the answer.
    await until(async () => {
      const r = await report(ws, "no-shows", range());
      return r.body.totals.fees === 2500;
    });
  });

  const range = (group_by?: string) => ({
    location_uuid: shop.location,
    from: plusDays(first, -1),
    to: plusDays(first, 4),
    ...(group_by ? { group_by } : {}),
  });

  const counts = (bookings: number, didnt: number, late: number, fees: number) => ({
    bookings,
    didnt_come: didnt,
    late_cancels: late,
    no_show_rate: bookings ? Math.round((didnt / bookings) * 10_000) / 10_000 : null,
    late_cancel_rate: bookings ? Math.round((late / bookings) * 10_000) / 10_000 : null,
    fees,
    currency: "EUR",
  });

  it("by service (the default): kept, didn't come with its fee, a late cancel; a timely cancel not counted", async () => {
    const res = await report(shop.ws, "no-shows", range());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.group_by).toBe("service");
    expect(res.body.data).toEqual([
      { key: colour, label: '=Colour, "deluxe"', ...counts(2, 0, 1, 0) },
      { key: trim, label: "Trim", ...counts(3, 1, 0, 2500) },
    ]);
    // The two-service booking is in both rows: the totals sum the rows.
    expect(res.body.totals).toEqual(counts(5, 1, 1, 2500));
    expect(d1RoundTrips(res.headers)).toBe(1);
  });

  it("by staffer and by customer", async () => {
    const staff = await report(shop.ws, "no-shows", range("staffer"));
    expect(staff.body.data).toEqual([
      { key: sam, label: "Sam", ...counts(4, 1, 1, 2500) },
      { key: tia, label: "Tia", ...counts(1, 0, 0, 0) },
    ]);
    expect(staff.body.totals).toEqual(counts(5, 1, 1, 2500));
    const people = await report(shop.ws, "no-shows", range("customer"));
    expect(people.status, JSON.stringify(people.body)).toBe(200);
    expect(people.body.data.map((r: { label: string }) => r.label)).toEqual([
      "Anna Berg",
      "Ben Berg",
      "Cleo Berg",
    ]);
    expect(
      people.body.data.map(({ key: _k, label: _l, ...rest }: Record<string, unknown>) => rest),
    ).toEqual([counts(2, 1, 0, 2500), counts(1, 0, 1, 0), counts(1, 0, 0, 0)]);
    expect(people.body.totals).toEqual(counts(4, 1, 1, 2500));
    expect(d1RoundTrips(people.headers)).toBe(1);
  });

  it("CSV of each grouping equals its JSON rows; a formula-like name gets its leading '", async () => {
    for (const group_by of ["service", "staffer", "customer"]) {
      const json = await report(shop.ws, "no-shows", range(group_by));
      const res = await raw(
        shop.ws,
        `/reports/no-shows?${new URLSearchParams(range(group_by))}`,
        "text/csv",
      );
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(strictCsv(text)).toEqual(json.body.data.map(asCsv));
      if (group_by === "service") expect(text).toContain(`"'=Colour, ""deluxe"""`);
    }
  });

  it("revenue: the no-show fee counts on the day its money moved, under the booking's first service and staffer, online", async () => {
    const q = { location_uuid: shop.location, from: today, to: today };
    const zero = {
      bookings_completed: 0,
      services_amount: 0,
      goods_amount: 0,
      vouchers_sold: 0,
      packages_sold: 0,
      refunds: 0,
      discounts: 0,
      currency: "EUR",
    };
    const fee = { ...zero, fees: 2500, net: 2500 };
    const byDay = await report(shop.ws, "revenue", q);
    expect(byDay.status, JSON.stringify(byDay.body)).toBe(200);
    expect(byDay.body.data).toEqual([{ key: today, label: today, ...fee }]);
    expect(byDay.body.totals).toEqual(fee);
    expect(d1RoundTrips(byDay.headers)).toBe(1);
    const groups = {
      staffer: [{ key: sam, label: "Sam", ...fee }],
      service: [{ key: trim, label: "Trim", ...fee }],
      payment_method: [{ key: "online_account", label: "Online", ...fee }],
      week: [{ key: mondayOf(today), label: `Week of ${mondayOf(today)}`, ...fee }],
      month: [{ key: today.slice(0, 7), label: today.slice(0, 7), ...fee }],
    };
    for (const [group_by, data] of Object.entries(groups)) {
      const res = await report(shop.ws, "revenue", { ...q, group_by });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data, group_by).toEqual(data);
      expect(res.body.totals).toEqual(fee);
      const csv = await raw(
        shop.ws,
        `/reports/revenue?${new URLSearchParams({ ...q, group_by })}`,
        "text/csv",
      );
      expect(csv.headers.get("content-disposition")).toBe(
        `attachment; filename="revenue-${today}-${today}.csv"`,
      );
      expect(strictCsv(await csv.text())).toEqual(data.map(asCsv));
    }
  });
});

const mondayOf = (date: string) => {
  const ms = Date.parse(`${date}T00:00:00Z`);
  const weekday = (new Date(ms).getUTCDay() + 6) % 7;
  return new Date(ms - weekday * 86_400_000).toISOString().slice(0, 10);
};

describe("every period of the range, validation, keys and workspaces", () => {
  let ws: TestWorkspace;
  let location: string;

  beforeAll(async () => {
    ws = await createWorkspace();
    location = (await createLocation(ws, { timezone: "America/New_York" })).uuid;
  });

  const base = () => ({ location_uuid: location, from: "2030-01-30", to: "2030-03-02" });

  it("revenue by day, week and month lists every period, zeros included, weeks keyed by Monday", async () => {
    const day = await report(ws, "revenue", base());
    expect(day.status, JSON.stringify(day.body)).toBe(200);
    expect(day.body.timezone).toBe("America/New_York");
    expect(day.body.data).toHaveLength(32);
    expect(day.body.data[0]).toMatchObject({ key: "2030-01-30", net: 0 });
    const week = await report(ws, "revenue", { ...base(), group_by: "week" });
    expect(week.body.data.map((r: { key: string }) => r.key)).toEqual([
      "2030-01-28",
      "2030-02-04",
      "2030-02-11",
      "2030-02-18",
      "2030-02-25",
    ]);
    const month = await report(ws, "revenue", { ...base(), group_by: "month" });
    expect(month.body.data.map((r: { label: string }) => r.label)).toEqual([
      "2030-01",
      "2030-02",
      "2030-03",
    ]);
    const csv = await raw(
      ws,
      `/reports/revenue?${new URLSearchParams({ ...base(), group_by: "month" })}`,
      "text/csv",
    );
    expect(strictCsv(await csv.text())).toEqual(month.body.data.map(asCsv));
    for (const name of ["utilization", "no-shows"]) {
      const empty = await report(ws, name, base());
      expect(empty.status).toBe(200);
      expect(empty.body.data).toEqual([]);
      const none = await raw(ws, `/reports/${name}?${new URLSearchParams(base())}`, "text/csv");
      expect((await none.text()).split("\r\n")).toHaveLength(2); // the header and nothing after
    }
  });

  it("Accept other than text/csv answers JSON", async () => {
    for (const accept of ["application/json", "*/*", "text/html", ""]) {
      const res = await raw(ws, `/reports/revenue?${new URLSearchParams(base())}`, accept);
      expect(res.headers.get("content-type"), accept).toMatch(/^application\/json/);
      expect(res.headers.get("vary")).toContain("Accept");
    }
  });

  it.each([
    ["from", { from: "2030-02-30" }],
    ["from", { from: "30-01-2030" }],
    ["to", { to: "2030-13-01" }],
    ["to", { to: "2030-01-29" }],
    ["to", { from: "2030-01-01", to: "2031-01-02" }],
    ["group_by", { group_by: "year" }],
    ["location_uuid", { location_uuid: "nope" }],
  ])("422 on %s for %j", async (field, change) => {
    for (const name of ["revenue", "utilization", "no-shows"]) {
      const res = await report(ws, name, { ...base(), ...change });
      expect(res.status, name).toBe(422);
      expect(res.body.code).toBe("validation_failed");
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
  });

  it("a year of an empty location reads a handful of rows, not the workspace's", async () => {
    for (const name of ["revenue", "utilization", "no-shows"]) {
      const res = await report(ws, name, { ...base(), from: "2028-01-01", to: "2028-12-31" });
      expect(res.status).toBe(200);
      const read = /d1-rows-read;desc="(\d+)"/.exec(res.headers.get("server-timing") ?? "");
      expect(Number(read?.[1]), name).toBeLessThanOrEqual(10);
    }
  });

  it("366 days is the most: a leap year's whole range answers", async () => {
    const res = await report(ws, "utilization", {
      ...base(),
      from: "2028-01-01",
      to: "2028-12-31",
      group_by: "day",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toHaveLength(366);
  });

  it("a publishable key is refused; another workspace's location is not found", async () => {
    const pk = await createPublishableKey(ws);
    const other = await createWorkspace();
    for (const name of ["revenue", "utilization", "no-shows"]) {
      const refused = await pk.api(`/reports/${name}?${new URLSearchParams(base())}`);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe("forbidden");
      const missing = await report(other, name, base());
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe("not_found");
      const unknown = await report(ws, name, { ...base(), location_uuid: crypto.randomUUID() });
      expect(unknown.status).toBe(404);
    }
  });
});

describe("CSV text", () => {
  it("any rows read back by the strict parser as written, formula starts made inert", () => {
    const text = fc.string({
      unit: fc.constantFrom(
        "a",
        "Z",
        " ",
        ",",
        '"',
        "\r",
        "\n",
        "\t",
        "=",
        "+",
        "-",
        "@",
        "'",
        "é",
        "ß",
      ),
      maxLength: 12,
    });
    const cell = fc.oneof(text, fc.integer({ min: -1e9, max: 1e9 }), fc.constant(null));
    fc.assert(
      fc.property(fc.array(fc.tuple(cell, cell, cell), { maxLength: 8 }), (rows) => {
        const records = rows.map(([a, b, c]) => ({ a, b, c }));
        const csv = csvOf(["a", "b", "c"], records);
        expect(csv.endsWith("\r\n")).toBe(true);
        expect(strictCsv(csv)).toEqual(records.map(asCsv));
      }),
      { numRuns: 300 },
    );
  });
});
