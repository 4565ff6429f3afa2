import { beforeAll, describe, expect, it } from "vitest";
import { rowCount } from "../helpers/db";
import { admin, type Client } from "../helpers/http";
import { createResource, type TestResource } from "../helpers/resources";
import { createSalon, customer, type Salon } from "../helpers/salon";

/**
 * One rule for every instant the API takes (body fields and query parameters,
 * public and management): `YYYY-MM-DDTHH:MM:SS` with `Z` or an offset,
 * normalised to UTC; whole seconds (a fraction of zeros is a whole second,
 * any other is 422); from 1970 to 2100-12-31T23:59:59Z (past it: 422).
 */

let salon: Salon;
let room: TestResource;
beforeAll(async () => {
  salon = await createSalon(3);
  room = await createResource(salon.ws, salon.location.uuid, { name: "Instant room" });
});

const DAY = 86_400_000;
/** The n-th free hour (UTC 08:00 + n, inside 09–18 Berlin in March) on the weekday `day` of the suite. */
const slot = (day: number, n = 0) => {
  // Mondays to Fridays from 2030-03-04, in weeks so each operation has its own days.
  const date = Date.UTC(2030, 2, 4) + (Math.floor(day / 5) * 7 + (day % 5)) * DAY;
  return new Date(date + (8 + n) * 3_600_000).toISOString().replace(".000Z", "Z");
};
/** The same instant written with a +01:00 offset. */
const withOffset = (z: string) =>
  new Date(Date.parse(z) + 3_600_000).toISOString().replace(".000Z", "+01:00");

const written = async () => {
  const tables = [
    "bookings",
    "blocked_spots",
    "reservations",
    "resource_blocks",
    "calendar_entries",
  ];
  return Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await rowCount(t)])));
};

type Received = Awaited<ReturnType<Client>>;

interface Operation {
  name: string;
  /** The error key of the instant under test. */
  field: string;
  /** Sends `value` as the instant under test; `n` picks a free time for an accepted one. */
  send(value: string): Promise<Received>;
  /** A valid instant for the n-th accepted call. */
  valid(n: number): string;
  status: number;
  /** A date `YYYY-MM-DD` is a valid value too (time-slot ranges). */
  dates?: boolean;
  /** The instant the response shows for what was sent (writes only). */
  echo?(res: Received): string;
}

const api = () => salon.ws.api;
/** Where each rescheduled booking starts: a free hour of its own. */
let origins = 0;
const origin = () => {
  const k = origins++;
  return slot(10 + Math.floor(k / 9), k % 9);
};
const loc = () => salon.location.uuid;
const cartItems = (start: string) => [
  { datetime_start: start, services: [{ service_uuid: salon.cut.uuid }] },
];

const operations: Operation[] = [
  {
    name: "POST /bookings",
    field: "reserved_on",
    valid: (n) => slot(0, n),
    status: 201,
    send: (reserved_on) =>
      api()("/bookings", {
        method: "POST",
        body: { location_uuid: loc(), service_uuid: salon.cut.uuid, reserved_on, ...customer() },
      }),
    echo: (res) => res.body.start_time,
  },
  {
    name: "POST /bookings/cart",
    field: "items.0.datetime_start",
    valid: (n) => slot(1, n),
    status: 201,
    send: (start) =>
      api()("/bookings/cart", {
        method: "POST",
        body: { location_uuid: loc(), items: cartItems(start), ...customer() },
      }),
    echo: (res) => res.body.bookings[0].start_time,
  },
  {
    name: "PUT /bookings/{uuid}/reschedule",
    field: "reserved_on",
    valid: (n) => slot(2, n),
    status: 200,
    send: async (reserved_on) => {
      const from = origin();
      const booked = await api()("/bookings", {
        method: "POST",
        body: {
          location_uuid: loc(),
          service_uuid: salon.cut.uuid,
          reserved_on: from,
          ...customer(),
        },
      });
      expect(booked.status, JSON.stringify(booked.body)).toBe(201);
      const res = await api()(`/bookings/${booked.body.uuid}/reschedule`, {
        method: "PUT",
        body: { reserved_on },
      });
      if (res.status >= 400) {
        // Refused: the booking stays where it was.
        const after = await api()(`/bookings/${booked.body.uuid}`);
        expect(after.body.start_time).toBe(from);
      }
      return res;
    },
    echo: (res) => res.body.start_time,
  },
  {
    name: "POST /reservations",
    field: "items.0.datetime_start",
    valid: (n) => slot(4, n),
    status: 201,
    send: (start) =>
      api()("/reservations", {
        method: "POST",
        body: { location_uuid: loc(), items: cartItems(start) },
      }),
    echo: (res) => res.body.items[0].datetime_start,
  },
  ...(["starts_at", "ends_at"] as const).map((field): Operation => ({
    name: `POST /staffers/{uuid}/blocked-spots (${field})`,
    field,
    valid: (n) => (field === "starts_at" ? slot(5, n) : slot(6, n + 1)),
    status: 201,
    send: (value) =>
      api()(`/staffers/${salon.staffers[0]?.uuid}/blocked-spots`, {
        method: "POST",
        body: {
          location_uuid: loc(),
          starts_at: field === "starts_at" ? value : slot(6, 0),
          ends_at: field === "ends_at" ? value : slot(5, 8),
        },
      }),
    echo: (res) => res.body[field],
  })),
  ...(["starts_at", "ends_at"] as const).map((field): Operation => ({
    name: `POST admin /workspaces/{ws}/resources/{uuid}/blocked-spots (${field})`,
    field,
    valid: (n) => (field === "starts_at" ? slot(7, n) : slot(8, n + 1)),
    status: 201,
    send: (value) =>
      admin(`/workspaces/${salon.ws.id}/resources/${room.uuid}/blocked-spots`, {
        method: "POST",
        body: {
          starts_at: field === "starts_at" ? value : slot(8, 0),
          ends_at: field === "ends_at" ? value : slot(7, 8),
        },
      }),
    echo: (res) => res.body[field],
  })),
  ...(["range_start", "range_end"] as const).map((field): Operation => ({
    name: `GET /locations/{uuid}/time-slots (${field})`,
    field,
    valid: (n) => slot(9, n),
    status: 200,
    dates: true,
    send: (value) => {
      const q = new URLSearchParams({
        service_uuid: salon.cut.uuid,
        range_start: field === "range_start" ? value : "2030-03-01T00:00:00Z",
        range_end: field === "range_end" ? value : "2030-05-01T00:00:00Z",
      });
      return api()(`/locations/${loc()}/time-slots?${q}`);
    },
  })),
  ...(["range_start", "range_end"] as const).map((field): Operation => ({
    name: `POST /locations/{uuid}/time-slots/cart (${field})`,
    field,
    valid: (n) => slot(9, n),
    status: 200,
    dates: true,
    send: (value) =>
      api()(`/locations/${loc()}/time-slots/cart`, {
        method: "POST",
        body: {
          services: [{ service_uuid: salon.cut.uuid }],
          range_start: field === "range_start" ? value : "2030-03-01T00:00:00Z",
          range_end: field === "range_end" ? value : "2030-05-01T00:00:00Z",
        },
      }),
  })),
  ...(["reserved_on_from", "reserved_on_to", "created_at_from", "created_at_to"] as const).map(
    (field): Operation => ({
      name: `GET /bookings (${field})`,
      field,
      valid: (n) => slot(9, n),
      status: 200,
      send: (value) => api()(`/bookings?${new URLSearchParams({ [field]: value })}`),
    }),
  ),
  ...(["created_at_from", "created_at_to"] as const).map((field): Operation => ({
    name: `GET /orders (${field})`,
    field,
    valid: (n) => slot(9, n),
    status: 200,
    send: (value) => api()(`/orders?${new URLSearchParams({ [field]: value })}`),
  })),
];

const refused: [string, (valid: string) => string, RegExp][] = [
  ["a fraction (.999)", (v) => v.replace("Z", ".999Z"), /whole seconds/],
  ["a fraction (.001)", (v) => v.replace("Z", ".001Z"), /whole seconds/],
  ["a fraction with an offset", (v) => withOffset(v).replace("+", ".5+"), /whole seconds/],
  ["the first instant of 2101", () => "2101-01-01T00:00:00Z", /2100/],
  ["year 9999", () => "9999-12-31T23:59:59Z", /2100/],
  ["2100 that an offset takes into 2101", () => "2100-12-31T23:30:00-01:00", /2100/],
  ["before 1970", () => "1969-12-31T23:59:59Z", /1970/],
  ["no seconds", (v) => v.replace(":00Z", "Z"), /instant/],
  ["a date only", (v) => v.slice(0, 10), /instant/],
  ["a space for T", (v) => v.replace("T", " "), /instant/],
  ["an offset without a colon", (v) => withOffset(v).replace("+01:00", "+0100"), /instant/],
  ["a calendar date that does not exist", (v) => `2030-02-30${v.slice(10)}`, /instant/],
];

describe.each(operations)("instants on $name", (op) => {
  let n = 0;
  const accept = async (value: string, expected: string) => {
    const res = await op.send(value);
    expect(res.status, `${value}: ${JSON.stringify(res.body)}`).toBe(op.status);
    if (op.echo) expect(op.echo(res)).toBe(expected);
  };

  it("accepts UTC with whole seconds", async () => {
    const v = op.valid(n++);
    await accept(v, v);
  });

  it("accepts an offset and answers the instant in UTC", async () => {
    const v = op.valid(n++);
    await accept(withOffset(v), v);
  });

  it("accepts a fraction of zeros as the whole second it is", async () => {
    const v = op.valid(n++);
    await accept(v.replace("Z", ".000Z"), v);
  });

  const cases = refused.filter(([name]) => !(op.dates && name === "a date only"));
  it.each(cases)(
    "refuses %s with 422 on the field and writes nothing",
    async (_, make, message) => {
      const before = await written();
      const value = make(op.valid(n));
      const res = await op.send(value);
      expect(res.status, `${value}: ${JSON.stringify(res.body)}`).toBe(422);
      expect(res.body.code).toBe("validation_failed");
      expect(res.body.errors[op.field], JSON.stringify(res.body)).toEqual([
        expect.stringMatching(message),
      ]);
      const after = await written();
      // The reschedule case books first (to have something to move): only that booking is new.
      if (op.name.startsWith("PUT")) {
        expect(after.bookings).toBe(before.bookings + 1);
        expect({ ...after, bookings: 0, calendar_entries: 0 }).toEqual({
          ...before,
          bookings: 0,
          calendar_entries: 0,
        });
      } else {
        expect(after).toEqual(before);
      }
    },
  );
});

describe("the last instant of 2100", () => {
  it("is accepted; the next second is not", async () => {
    const block = (ends_at: string) =>
      salon.ws.api(`/staffers/${salon.staffers[1]?.uuid}/blocked-spots`, {
        method: "POST",
        body: { location_uuid: salon.location.uuid, starts_at: "2100-12-31T22:00:00Z", ends_at },
      });
    const last = await block("2100-12-31T23:59:59Z");
    expect(last.status, JSON.stringify(last.body)).toBe(201);
    expect(last.body.ends_at).toBe("2100-12-31T23:59:59Z");
    expect((await block("2101-01-01T00:00:00Z")).status).toBe(422);
  });

  it("dates of a time-slot range follow the same bound", async () => {
    const search = (range_start: string, range_end: string) =>
      salon.ws.api(
        `/locations/${salon.location.uuid}/time-slots?${new URLSearchParams({ service_uuid: salon.cut.uuid, range_start, range_end })}`,
      );
    expect((await search("2100-12-30", "2100-12-31")).status).toBe(200);
    const past = await search("2100-12-31", "2101-01-01");
    expect(past.status).toBe(422);
    expect(past.body.errors.range_end).toEqual([expect.stringMatching(/2100/)]);
  });
});
