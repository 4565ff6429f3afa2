import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { calendarFor } from "../../src/calendar/client";
import { rowCount } from "../helpers/db";
import { admin, d1RoundTrips } from "../helpers/http";
import { at, createSalon, customer, MONDAY, type Salon } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

let salon: Salon;
beforeAll(async () => {
  salon = await createSalon();
});

const book = (body: Record<string, unknown>) => salon.ws.api("/bookings", { method: "POST", body });
const base = (over: Record<string, unknown> = {}) => ({
  location_uuid: salon.location.uuid,
  service_uuid: salon.cut.uuid,
  reserved_on: at("09:00"),
  ...customer(),
  ...over,
});

describe("POST /bookings", () => {
  it("books a staffer and returns the full Booking shape", async () => {
    const staffer = salon.staffers[0]?.uuid;
    const res = await book(
      base({
        staffer_uuid: staffer,
        booking_comment: "Short please",
        source: "widget",
        timezone: "Europe/Berlin",
      }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(3);
    const b = res.body;
    expect(b).toMatchObject({
      location_uuid: salon.location.uuid,
      start_time: "2030-03-04T09:00:00Z",
      end_time: "2030-03-04T09:45:00Z",
      timezone: "Europe/Berlin",
      duration: { value: 45, label: "minutes", iso_8601: "PT45M" },
      quantity: 1,
      slots_count: 1,
      cancel_reason: null,
      canceled_by: null,
      is_canceled: false,
      is_completed: false,
      public_notes: "Short please",
      currency: "EUR",
      status: { name: "New", type: "new" },
      policy: {
        policy_text: null,
        is_cancelable: true,
        cancellation_offset: 0,
        cancellation_text: null,
        is_changeable: true,
        change_offset: 0,
        change_text: null,
      },
      order: { tax: [], subtotal: 3500, amount_paid: 0, total: 3500 },
    });
    expect(b.order.total_formatted).toMatch(/35[.,]00/);
    expect(b.links.map((l: { type: string }) => l.type)).toEqual([
      "ical",
      "google_meet",
      "zoom",
      "microsoft_teams",
    ]);
    expect(b.links[0].link).toMatch(
      // The workspace (32 hex, where the link finds its shard), then the booking's own token.
      new RegExp(
        `/api/public/v2/bookings/${b.uuid}/ical\\?token=${salon.ws.id.replaceAll("-", "")}[0-9a-f]{32}$`,
      ),
    );
    expect(b.links.slice(1).every((l: { link: string }) => l.link === "")).toBe(true);
    expect(b.ordered_services).toEqual([
      expect.objectContaining({
        service_uuid: salon.cut.uuid,
        staffer_uuid: staffer,
        reserved_on: "2030-03-04T09:00:00Z",
        reserved_until: "2030-03-04T09:45:00Z",
        quantity: 1,
        name: "Haircut",
        currency: "EUR",
        price: 3500,
        original_price: 3500,
        discount: 0,
        tax_name: null,
        tax_value: null,
        duration: { value: 45, label: "minutes", iso_8601: "PT45M" },
        original_duration: { value: 45, label: "minutes", iso_8601: "PT45M" },
      }),
    ]);
    // The staffer's calendar holds the service plus its 15-minute buffer.
    const entries = await calendarFor(env, salon.ws.id, staffer ?? "").entries();
    expect(entries).toContainEqual(
      expect.objectContaining({
        kind: "booking",
        start: Date.parse(at("09:00")),
        end: Date.parse(at("10:00")),
      }),
    );
    const fetched = await salon.ws.api(`/bookings/${b.uuid}`);
    expect(fetched.body).toEqual(b);
  });

  it("serves the ical link as a real calendar file without an API key", async () => {
    const res = await book(base({ reserved_on: at("13:00") }));
    const link = new URL(res.body.links[0].link);
    const { exports } = await import("cloudflare:workers");
    const ics = await exports.default.fetch(new Request(link));
    expect(ics.status).toBe(200);
    expect(ics.headers.get("content-type")).toContain("text/calendar");
    const text = await ics.text();
    expect(text).toContain("BEGIN:VEVENT");
    expect(text).toContain("DTSTART:20300304T130000Z");
    const wrong = await exports.default.fetch(
      new Request(`${link.origin}${link.pathname}?token=${"0".repeat(32)}`),
    );
    expect(wrong.status).toBe(404);
  });

  it("finds the customer by normalised phone and refreshes the names", async () => {
    const first = await book(base({ reserved_on: at("14:00"), ...customer("+49 170 1112233") }));
    const second = await book(
      base({
        reserved_on: at("15:00"),
        ...customer("0170 1112233"),
        customer_first_name: "Annabel",
      }),
    );
    expect(second.body.customer_uuid).toBe(first.body.customer_uuid);
    const found = await salon.ws.api(`/customers/${first.body.customer_uuid}`);
    expect(found.body).toMatchObject({
      first_name: "Annabel",
      last_name: "Berg",
      phone: "+491701112233",
    });
  });

  it("records an unknown or empty source as unknown and a string booking_callback as a flag", async () => {
    const res = await book(
      base({ reserved_on: at("11:00"), source: "carrier-pigeon", booking_callback: "1" }),
    );
    expect(res.status).toBe(201);
    const row = await everyShard
      .prepare("select source, booking_callback from bookings where id = ?")
      .bind(res.body.uuid)
      .first();
    expect(row).toEqual({ source: "unknown", booking_callback: 1 });
  });

  it("auto-assigns a free staffer and answers 409 once everyone is taken", async () => {
    const time = at("10:00", "2030-03-05");
    const assigned = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await book(base({ reserved_on: time, ...customer(`+49 151 0000000${i}`) }));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      assigned.add(res.body.ordered_services[0].staffer_uuid);
    }
    expect(assigned.size).toBe(3);
    const full = await book(base({ reserved_on: time, ...customer("+49 151 00000009") }));
    expect(full.status).toBe(409);
    expect(full.body.code).toBe("slot_unavailable");
    // The buffer counts: 10:45 is still inside every staffer's busy time.
    const buffer = await book(base({ reserved_on: at("10:45", "2030-03-05") }));
    expect(buffer.status).toBe(409);
  });

  it("refuses a staffer who is not active in the booking widget", async () => {
    const hidden = await admin(`/workspaces/${salon.ws.id}/staffers`, {
      method: "POST",
      body: {
        first_name: "Hidden",
        location_uuids: [salon.location.uuid],
        is_active_in_widget: false,
        schedule: [
          { location_uuid: salon.location.uuid, weekday: 1, start: "09:00", end: "18:00" },
        ],
      },
    });
    const res = await book(base({ staffer_uuid: hidden.body.uuid, reserved_on: at("16:00") }));
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(["staffer_uuid"]);
  });

  it.each([
    ["in the past", { reserved_on: "2020-03-02T09:00:00Z" }, "reserved_on", 422],
    ["outside working hours", { reserved_on: at("20:00") }, "reserved_on", 422],
    ["on a day off", { reserved_on: at("10:00", "2030-03-09") }, "reserved_on", 422],
    [
      "unknown service",
      { service_uuid: "00000000-0000-4000-8000-000000000001" },
      "service_uuid",
      422,
    ],
    [
      "unknown location",
      { location_uuid: "00000000-0000-4000-8000-000000000001" },
      "location_uuid",
      422,
    ],
    ["bad phone", { customer_phone: "12" }, "customer_phone", 422],
    ["bad e-mail", { customer_email: "nope" }, "customer_email", 422],
    ["bad timezone", { timezone: "Mars/Base" }, "timezone", 422],
    ["not a date", { reserved_on: "tomorrow" }, "reserved_on", 422],
    [
      "bad guest e-mails",
      { booking_google_meet_guest_emails: "a@b.c, nope" },
      "booking_google_meet_guest_emails",
      422,
    ],
    ["missing first name", { customer_first_name: undefined }, "customer_first_name", 422],
  ])("rejects a booking %s and writes nothing", async (_, change, field, status) => {
    const before = {
      bookings: await rowCount("bookings"),
      customers: await rowCount("customers"),
      entries: await rowCount("calendar_entries"),
    };
    const res = await book(base(change));
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(Object.keys(res.body.errors ?? {})).toContain(field);
    expect({
      bookings: await rowCount("bookings"),
      customers: await rowCount("customers"),
      entries: await rowCount("calendar_entries"),
    }).toEqual(before);
  });

  it("treats another workspace's service as unknown and its bookings as not found", async () => {
    const other = await createSalon(1);
    const res = await book(base({ service_uuid: other.cut.uuid, reserved_on: at("16:30") }));
    expect(res.status).toBe(422);
    const theirs = await other.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: other.location.uuid,
        service_uuid: other.cut.uuid,
        reserved_on: at("09:00"),
        ...customer(),
      },
    });
    expect(theirs.status).toBe(201);
    expect((await salon.ws.api(`/bookings/${theirs.body.uuid}`)).status).toBe(404);
  });

  it("the Monday fixture is a working Monday in the location's zone (09:00 local is 08:00Z)", async () => {
    // Intl, not the API: 08:00Z on MONDAY is Monday 09:00 in Berlin (UTC+1 in March).
    const local = new Intl.DateTimeFormat("en-GB", {
      timeZone: "Europe/Berlin",
      weekday: "long",
      hour: "2-digit",
      minute: "2-digit",
    }).format(new Date(at("08:00")));
    expect(local).toBe("Monday 09:00");
    // The API agrees: the staffer's day starts at 08:00Z, not a minute earlier.
    const early = await book(
      base({ reserved_on: at("07:45"), staffer_uuid: salon.staffers[2]?.uuid }),
    );
    expect(early.status).toBe(422);
    expect(Object.keys(early.body.errors)).toEqual(["reserved_on"]);
    const opening = await book(
      base({ reserved_on: at("08:00"), staffer_uuid: salon.staffers[2]?.uuid }),
    );
    expect(opening.status, JSON.stringify(opening.body)).toBe(201);
    expect(opening.body.start_time).toBe(`${MONDAY}T08:00:00Z`);
  });
});
