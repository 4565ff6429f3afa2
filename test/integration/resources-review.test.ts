import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { calendarFor } from "../../src/calendar/client";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { unitCalendarId } from "../../src/calendar/ids";
import { failpoints, rendezvous } from "../../src/platform/failpoints";
import { expectInSync, expectUnitsInSync, expireHolds, unitOverlaps } from "../helpers/calendar";
import {
  createLocation,
  createStaffer,
  createWorkspace,
  WEEKDAYS_9_TO_18,
} from "../helpers/factory";
import { admin, type Received } from "../helpers/http";
import { createResource, type TestResource } from "../helpers/resources";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

/**
 * Review probes of the resources change: the edges a reader finds suspicious
 * (statements at the maxima, units under concurrent writers, what slot search
 * promises against what bookings take, tenancy and error bodies). Each test
 * says what it probes; a failing one is a finding.
 */
let salon: Salon;
let staff: string[];
/** Three basins. */
let basins: TestResource;
/** 30 minutes, needs a basin. */
let wash: { uuid: string };
/** Ten one-unit resources of the salon's location. */
let ten: TestResource[];
/** 20 minutes, needs all ten. */
let tenfold: { uuid: string };

// Mondays from 2033-05-02 (Berlin is UTC+2: 10:00Z is 12:00 local).
const monday = (week: number) =>
  new Date(Date.parse("2033-05-02T00:00:00Z") + week * 7 * 86_400_000).toISOString().slice(0, 10);

async function service(body: Record<string, unknown>) {
  const res = await salon.ws.api("/services", { method: "POST", body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uuid: string; resource_uuids: string[] };
}

const book = (start: string, serviceId: string, stafferId?: string) =>
  salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: serviceId,
      reserved_on: start,
      ...(stafferId ? { staffer_uuid: stafferId } : {}),
      ...customer(),
    },
  });

const block = (resource: TestResource, body: Record<string, unknown>) =>
  admin(`/workspaces/${salon.ws.id}/resources/${resource.uuid}/blocked-spots`, {
    method: "POST",
    body,
  });

async function slotsOn(date: string, serviceId: string) {
  const res = await salon.ws.api(
    `/locations/${salon.location.uuid}/time-slots?service_uuid=${serviceId}&range_start=${date}&range_end=${date}`,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const slots = res.body.dates[0].slots as { start: string; quantity: number }[];
  return new Map(slots.map((s) => [s.start, s.quantity]));
}

/**
 * An error body of the API's shape: message and snake_case code, `errors` only
 * as field → messages (a slot conflict may add its `alternatives`).
 */
function expectErrorShape(body: unknown) {
  expect(body).toEqual(
    expect.objectContaining({ message: expect.any(String), code: expect.any(String) }),
  );
  const b = body as { code: string; errors?: Record<string, unknown> };
  expect(b.code).toMatch(/^[a-z][a-z0-9_]*$/);
  if (b.errors !== undefined) {
    for (const messages of Object.values(b.errors)) {
      expect(Array.isArray(messages)).toBe(true);
    }
  }
  expect(
    Object.keys(body as object).every((k) =>
      ["message", "code", "errors", "alternatives"].includes(k),
    ),
  ).toBe(true);
}

beforeAll(async () => {
  salon = await createSalon(4);
  staff = salon.staffers.map((s) => s.uuid);
  basins = await createResource(salon.ws, salon.location.uuid, {
    name: "Basin",
    kind: "chair",
    quantity: 3,
  });
  wash = await service({ name: "Wash", duration: 30, price: 1500, resource_uuids: [basins.uuid] });
  ten = [];
  for (let i = 0; i < 10; i++) {
    ten.push(await createResource(salon.ws, salon.location.uuid, { name: `Item ${i}` }));
  }
  tenfold = await service({
    name: "Full kit",
    duration: 20,
    price: 2000,
    resource_uuids: ten.map((r) => r.uuid),
  });
});

describe("statements at the maxima (10 resources on one service)", () => {
  // Found in review: replace service wrote the new entries with one plain INSERT
  // (1 staffer entry + 10 unit entries × 10 bound columns = 110 parameters, refused:
  // 500 internal_error); they go through insertRows now.
  it("replace service onto a service needing 10 resources", async () => {
    const date = monday(0);
    const simple = await book(at("10:00", date), salon.cut.uuid, staff[0]);
    expect(simple.status, JSON.stringify(simple.body)).toBe(201);
    const swapped = await salon.ws.api(`/bookings/${simple.body.uuid}/services`, {
      method: "PUT",
      body: { service_uuid: tenfold.uuid },
    });
    expect(swapped.status, JSON.stringify(swapped.body)).toBe(200);
    expect([...swapped.body.ordered_services[0].resource_uuids].sort()).toEqual(
      ten.map((r) => r.uuid).sort(),
    );
    await expectUnitsInSync(salon.ws.id, ten);
  });

  it("reschedule, change staffer and cancel of a booking holding 10 resources", async () => {
    const date = monday(1);
    const booked = await book(at("10:00", date), tenfold.uuid, staff[0]);
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const path = `/bookings/${booked.body.uuid}`;
    const moved = await salon.ws.api(`${path}/reschedule`, {
      method: "PUT",
      body: { reserved_on: at("11:00", date) },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const changed = await salon.ws.api(`${path}/staffer`, {
      method: "PUT",
      body: { staffer_uuid: staff[1] },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    await expectUnitsInSync(salon.ws.id, ten);
    // Every unit is taken at 11:00, none at 10:00.
    expect((await book(at("11:00", date), tenfold.uuid, staff[2])).status).toBe(409);
    const canceled = await salon.ws.api(`${path}/status/cancel`, { method: "PUT", body: {} });
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    expect((await book(at("11:00", date), tenfold.uuid, staff[2])).status).toBe(201);
    expect(await unitOverlaps(salon.ws.id)).toEqual([]);
    await expectUnitsInSync(salon.ws.id, ten);
    await expectInSync(salon.ws.id, staff);
  });
});

describe("slot search quantity against what bookings can take", () => {
  // Units busy at different times: a start's quantity must count only units free for
  // the whole duration + buffer, and exactly that many bookings must fit there.
  it("fragmented units: quantity bookings fit at each start, one more does not", async () => {
    // Unit 1 busy 10:00–10:30Z, unit 2 busy 10:30–11:00Z, unit 3 free (local = Z + 2 h).
    const starts = [
      { utc: "09:45", local: "11:45" },
      { utc: "10:00", local: "12:00" },
      { utc: "10:15", local: "12:15" },
      { utc: "10:30", local: "12:30" },
    ];
    for (const [i, start] of starts.entries()) {
      const date = monday(2 + i);
      for (const [unit, from, to] of [
        [1, "10:00", "10:30"],
        [2, "10:30", "11:00"],
      ] as const) {
        const res = await block(basins, { unit, starts_at: at(from, date), ends_at: at(to, date) });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
      }
      const quantity = (await slotsOn(date, wash.uuid)).get(start.local) ?? 0;
      // 09:45: units 2, 3; 10:00: units 2 (busy from 10:30), 3; 10:15: unit 3; 10:30: units 1, 3.
      const expected = { "11:45": 2, "12:00": 2, "12:15": 1, "12:30": 2 }[start.local];
      expect(quantity, `quantity at ${start.local}`).toBe(expected);
      const statuses: number[] = [];
      for (let k = 0; k <= quantity; k++) {
        statuses.push((await book(at(start.utc, date), wash.uuid)).status);
      }
      expect(statuses, `bookings at ${start.local}`).toEqual([
        ...Array.from({ length: quantity }, () => 201),
        409,
      ]);
      expect(await unitOverlaps(salon.ws.id)).toEqual([]);
    }
    await expectUnitsInSync(salon.ws.id, [basins]);
  });

  it("a fixed staffer: quantity 1 while a unit is free, gone when none is", async () => {
    const date = monday(6);
    const url = (stafferId: string) =>
      `/locations/${salon.location.uuid}/time-slots?service_uuid=${wash.uuid}&range_start=${date}&range_end=${date}&staffer_uuid=${stafferId}`;
    const before = await salon.ws.api(url(staff[3] ?? ""));
    expect(before.status).toBe(200);
    const at12 = (body: { dates: { slots: { start: string; quantity: number }[] }[] }) =>
      body.dates[0]?.slots.find((s) => s.start === "12:00")?.quantity;
    expect(at12(before.body)).toBe(1);
    for (const s of staff.slice(0, 3)) {
      expect((await book(at("10:00", date), wash.uuid, s)).status).toBe(201);
    }
    const after = await salon.ws.api(url(staff[3] ?? ""));
    expect(at12(after.body)).toBeUndefined();
    expect((await book(at("10:00", date), wash.uuid, staff[3])).status).toBe(409);
  });
});

describe("writers of one unit started together", () => {
  it("reschedule onto, change staffer, cancel and new bookings of the last basin at once", async () => {
    const date = monday(7);
    // Two basins taken at 10:00 by bookings that stay; one left.
    expect((await book(at("10:00", date), wash.uuid, staff[0])).status).toBe(201);
    expect((await book(at("10:00", date), wash.uuid, staff[1])).status).toBe(201);
    const moving = await book(at("13:00", date), wash.uuid, staff[2]);
    const canceling = await book(at("14:00", date), wash.uuid, staff[0]);
    const results = await Promise.all([
      salon.ws.api(`/bookings/${moving.body.uuid}/reschedule`, {
        method: "PUT",
        body: { reserved_on: at("10:00", date) },
      }),
      salon.ws.api(`/bookings/${moving.body.uuid}/staffer`, {
        method: "PUT",
        body: { staffer_uuid: staff[3] },
      }),
      salon.ws.api(`/bookings/${canceling.body.uuid}/status/cancel`, { method: "PUT", body: {} }),
      book(at("10:00", date), wash.uuid, staff[3]),
      book(at("10:00", date), wash.uuid),
    ]);
    for (const r of results) {
      expect([200, 201, 409], JSON.stringify(r.body)).toContain(r.status);
      if (r.status === 409) expectErrorShape(r.body);
    }
    const { results: live } = await everyShard
      .prepare(`select count(*) as n from calendar_entries where resource_id = ? and starts_at = ?`)
      .bind(basins.uuid, Date.parse(at("10:00", date)))
      .all<{ n: number }>();
    expect(live[0]?.n).toBeLessThanOrEqual(3);
    expect(await unitOverlaps(salon.ws.id)).toEqual([]);
    await expectUnitsInSync(salon.ws.id, [basins]);
    await expectInSync(salon.ws.id, staff);
  });

  it("two replace-service requests for the one free basin: one wins", async () => {
    const date = monday(8);
    expect((await book(at("10:00", date), wash.uuid, staff[0])).status).toBe(201);
    expect((await book(at("10:00", date), wash.uuid, staff[1])).status).toBe(201);
    const a = await book(at("10:00", date), salon.cut.uuid, staff[2]);
    const b = await book(at("10:00", date), salon.cut.uuid, staff[3]);
    const swaps = await Promise.all(
      [a, b].map((r) =>
        salon.ws.api(`/bookings/${r.body.uuid}/services`, {
          method: "PUT",
          body: { service_uuid: wash.uuid },
        }),
      ),
    );
    expect(swaps.map((r) => r.status).sort(), JSON.stringify(swaps.map((r) => r.body))).toEqual([
      200, 409,
    ]);
    expect(await unitOverlaps(salon.ws.id)).toEqual([]);
    await expectUnitsInSync(salon.ws.id, [basins]);
  });

  it("a reservation's booking and three clients for the same basins: the holder always wins", async () => {
    const date = monday(9);
    expect((await book(at("10:00", date), wash.uuid, staff[0])).status).toBe(201);
    const held = await salon.ws.api("/reservations", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [{ datetime_start: at("10:00", date), services: [{ service_uuid: wash.uuid }] }],
      },
    });
    expect(held.status, JSON.stringify(held.body)).toBe(201);
    expect(held.body.items[0].services[0].resource_uuids).toEqual([basins.uuid]);
    const holder = held.body.items[0].services[0].staffer_uuid as string;
    const others = staff.filter((s) => s !== holder && s !== staff[0]);
    const [redeemed, ...rest] = await Promise.all([
      salon.ws.api("/bookings", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          service_uuid: wash.uuid,
          reserved_on: at("10:00", date),
          reservation_uuid: held.body.uuid,
          ...customer(),
        },
      }),
      ...others.map((s) => book(at("10:00", date), wash.uuid, s)),
      book(at("10:00", date), wash.uuid),
    ]);
    expect(redeemed?.status, JSON.stringify(redeemed?.body)).toBe(201);
    // Three basins: the first booking, the holder's, and one of the others.
    expect(rest.filter((r) => r.status === 201)).toHaveLength(1);
    expect(await unitOverlaps(salon.ws.id)).toEqual([]);
    await expectUnitsInSync(salon.ws.id, [basins]);
    await expectInSync(salon.ws.id, staff);
  });

  it("DELETE of a reservation and its booking at once: one wins, the basin is freed or booked", async () => {
    const date = monday(10);
    const held = await salon.ws.api("/reservations", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [{ datetime_start: at("10:00", date), services: [{ service_uuid: wash.uuid }] }],
      },
    });
    expect(held.status, JSON.stringify(held.body)).toBe(201);
    const [booked, deleted] = await Promise.all([
      salon.ws.api("/bookings", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          service_uuid: wash.uuid,
          reserved_on: at("10:00", date),
          reservation_uuid: held.body.uuid,
          ...customer(),
        },
      }),
      salon.ws.api(`/reservations/${held.body.uuid}`, { method: "DELETE" }),
    ]);
    const won = [booked?.status === 201, deleted?.status === 204].filter(Boolean);
    expect(won, JSON.stringify([booked?.body, deleted?.body])).toHaveLength(1);
    // Whatever won, three washes at 10:00 minus the booked one still fit.
    const free = booked?.status === 201 ? 2 : 3;
    const statuses: number[] = [];
    for (let k = 0; k <= free; k++)
      statuses.push((await book(at("10:00", date), wash.uuid)).status);
    expect(statuses).toEqual([...Array.from({ length: free }, () => 201), 409]);
    expect(await unitOverlaps(salon.ws.id)).toEqual([]);
    await expectUnitsInSync(salon.ws.id, [basins]);
  });

  /**
   * The interleaving behind that test's rare failure, forced: the booking and
   * the DELETE each lock the reservation's entries in one of its two calendars
   * (staffer, basin unit) before claiming the other, so each is refused
   * "replacing" by the other's claim in flight. Both used to give up (409
   * `reservation_expired` and 404); one must win.
   */
  it("DELETE and booking each holding one of the reservation's calendars: one wins", async () => {
    for (const [week, bookingFirstOn] of [
      [50, "staffer"],
      [51, "unit"],
    ] as const) {
      const date = monday(week);
      const held = await salon.ws.api("/reservations", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          items: [{ datetime_start: at("10:00", date), services: [{ service_uuid: wash.uuid }] }],
        },
      });
      expect(held.status, JSON.stringify(held.body)).toBe(201);
      const id = held.body.uuid as string;
      const rows = await everyShard
        .prepare("select staffer_id, resource_id, unit from calendar_entries where source_id = ?")
        .bind(id)
        .all<{ staffer_id: string | null; resource_id: string | null; unit: number | null }>();
      const stafferCal = rows.results.find((r) => r.staffer_id)?.staffer_id ?? "";
      const unitRow = rows.results.find((r) => r.resource_id);
      const unitCal = unitCalendarId(unitRow?.resource_id ?? "", unitRow?.unit ?? 0);
      // The claims that wait: the booking's on one calendar, the DELETE's on the other.
      const [bookingLate, deleteLate] =
        bookingFirstOn === "staffer" ? [unitCal, stafferCal] : [stafferCal, unitCal];
      const points = [
        `calendar.claim.${bookingLate}.adding`,
        `calendar.claim.${deleteLate}.freeing`,
      ];
      for (const point of points) failpoints.meet(point, 2, 10_000);
      const pending = Promise.all([
        salon.ws.api("/bookings", {
          method: "POST",
          body: {
            location_uuid: salon.location.uuid,
            service_uuid: wash.uuid,
            reserved_on: at("10:00", date),
            reservation_uuid: id,
            ...customer(),
          },
        }),
        salon.ws.api(`/reservations/${id}`, { method: "DELETE" }),
      ]);
      // Each write's other claim is granted: both calendars lock the reservation's entry.
      await vi.waitFor(
        async () => {
          for (const calendarId of [stafferCal, unitCal]) {
            const locked = await runInDurableObject(
              calendarFor(env, salon.ws.id, calendarId),
              (_o, state) => state.storage.sql.exec("SELECT entry_id FROM replacing").toArray(),
            );
            expect(locked).toHaveLength(1);
          }
        },
        { timeout: 5_000 },
      );
      for (const point of points) await rendezvous(point);
      const [booked, deleted] = await pending;
      failpoints.disarmAll();
      const won = [booked.status === 201, deleted.status === 204].filter(Boolean);
      expect(
        won,
        JSON.stringify([booked.status, booked.body, deleted.status, deleted.body]),
      ).toHaveLength(1);
      expect(booked.status === 201 ? deleted.status : booked.status).toBe(
        booked.status === 201 ? 404 : 409,
      );
      const free = booked.status === 201 ? 2 : 3;
      const statuses: number[] = [];
      for (let k = 0; k <= free; k++)
        statuses.push((await book(at("10:00", date), wash.uuid)).status);
      expect(statuses).toEqual([...Array.from({ length: free }, () => 201), 409]);
      expect(await unitOverlaps(salon.ws.id)).toEqual([]);
      await expectUnitsInSync(salon.ws.id, [basins]);
      await expectInSync(salon.ws.id, staff);
    }
  });
});

describe("tenancy and locations", () => {
  it("another workspace sees none of this workspace's resources, audits or blocks", async () => {
    const other = await createWorkspace();
    const otherLocation = await createLocation(other, { timezone: "Europe/Berlin" });
    const listed = await other.api(`/resources?per_page=100`);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([]);
    // Filtering by this workspace's location gives nothing either.
    const filtered = await other.api(`/resources?location_uuid=${salon.location.uuid}`);
    expect(filtered.status).toBe(200);
    expect(filtered.body.data).toEqual([]);
    for (const path of [
      `/workspaces/${other.id}/resources/${basins.uuid}/calendar`,
      `/workspaces/${other.id}/resources/${basins.uuid}/calendar/rebuild`,
      `/workspaces/${other.id}/resources/${basins.uuid}/blocked-spots`,
    ]) {
      const res = await admin(path, {
        method: path.endsWith("calendar") ? "GET" : "POST",
        body: path.endsWith("calendar")
          ? undefined
          : { starts_at: "2033-05-02T10:00:00Z", ends_at: "2033-05-02T11:00:00Z" },
      });
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(404);
      expectErrorShape(res.body);
    }
    const listedAdmin = await admin(
      `/workspaces/${other.id}/resources?location_uuid=${salon.location.uuid}`,
    );
    expect(listedAdmin.status).toBe(200);
    expect(listedAdmin.body.data).toEqual([]);
    // Its service may not name this workspace's resource, and writes nothing.
    const res = await other.api("/services", {
      method: "POST",
      body: {
        name: "Borrowed",
        duration: 30,
        price: 100,
        location_uuids: [otherLocation.uuid],
        resource_uuids: [basins.uuid],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expectErrorShape(res.body);
    expect(res.body.errors["resource_uuids.0"]).toBeDefined();
    const { results } = await everyShard
      .prepare(
        "select count(*) as n from service_resources where resource_id = ? and workspace_id = ?",
      )
      .bind(basins.uuid, other.id)
      .all<{ n: number }>();
    expect(results[0]?.n).toBe(0);
  });

  it("a service needing a resource of another location: 422 or nothing found, never 500", async () => {
    const annex = await createLocation(salon.ws, { name: "Annex", timezone: "Europe/Berlin" });
    const annexStaffer = await createStaffer(salon.ws, [annex.uuid], {
      first_name: "Annex",
      schedule: WEEKDAYS_9_TO_18(annex.uuid),
    });
    // Offered at both locations; the basins are at the salon's location only.
    const both = await service({
      name: "Wash anywhere",
      duration: 30,
      price: 1500,
      location_uuids: [salon.location.uuid, annex.uuid],
      resource_uuids: [basins.uuid],
    });
    const date = monday(11);
    const slots = await salon.ws.api(
      `/locations/${annex.uuid}/time-slots?service_uuid=${both.uuid}&range_start=${date}&range_end=${date}`,
    );
    expect(slots.status, JSON.stringify(slots.body)).toBe(200);
    expect(slots.body.dates[0].slots).toEqual([]);
    const next = await salon.ws.api(`/locations/${annex.uuid}/time-slots/cart/next`, {
      method: "POST",
      body: { services: [{ service_uuid: both.uuid }] },
    });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    const calendar = await salon.ws.api(`/locations/${annex.uuid}/time-slots/cart`, {
      method: "POST",
      body: { services: [{ service_uuid: both.uuid }], range_start: date, range_end: date },
    });
    expect(calendar.status, JSON.stringify(calendar.body)).toBe(200);
    const items = [{ datetime_start: at("10:00", date), services: [{ service_uuid: both.uuid }] }];
    const reserve = await salon.ws.api("/reservations", {
      method: "POST",
      body: { location_uuid: annex.uuid, items },
    });
    expect(reserve.status, JSON.stringify(reserve.body)).toBe(422);
    expectErrorShape(reserve.body);
    const cart = await salon.ws.api("/bookings/cart", {
      method: "POST",
      body: { location_uuid: annex.uuid, items, ...customer() },
    });
    expect(cart.status, JSON.stringify(cart.body)).toBe(422);
    expectErrorShape(cart.body);
    const single = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: annex.uuid,
        service_uuid: both.uuid,
        reserved_on: at("10:00", date),
        staffer_uuid: annexStaffer.uuid,
        ...customer(),
      },
    });
    expect(single.status, JSON.stringify(single.body)).toBe(422);
    expectErrorShape(single.body);
    // A simple booking at the annex cannot be switched to it either.
    const trim = await service({
      name: "Trim",
      duration: 30,
      price: 1000,
      location_uuids: [annex.uuid],
    });
    const plain = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: annex.uuid,
        service_uuid: trim.uuid,
        reserved_on: at("10:00", date),
        staffer_uuid: annexStaffer.uuid,
        ...customer(),
      },
    });
    expect(plain.status, JSON.stringify(plain.body)).toBe(201);
    const swap = await salon.ws.api(`/bookings/${plain.body.uuid}/services`, {
      method: "PUT",
      body: { service_uuid: both.uuid },
    });
    expect([409, 422], JSON.stringify(swap.body)).toContain(swap.status);
    expectErrorShape(swap.body);
    // At the salon's location the same service books a basin.
    expect((await book(at("10:00", date), both.uuid)).status).toBe(201);
  });
});

describe("bad input to the resource endpoints", () => {
  it("answers 4xx in the error shape, never 500, and writes nothing", async () => {
    const ws = salon.ws.id;
    const before = await everyShard
      .prepare("select count(*) as n from resources where workspace_id = ?")
      .bind(ws)
      .first<{ n: number }>();
    const bad: [
      string,
      { method?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> },
    ][] = [
      [
        `/workspaces/${ws}/resources`,
        { method: "POST", rawBody: "{", headers: { "content-type": "application/json" } },
      ],
      [`/workspaces/${ws}/resources`, { method: "POST", body: [] }],
      [`/workspaces/${ws}/resources`, { method: "POST", body: { location_uuid: "x", name: "" } }],
      [
        `/workspaces/${ws}/resources`,
        { method: "POST", body: { location_uuid: salon.location.uuid, name: "R", quantity: 51 } },
      ],
      [
        `/workspaces/${ws}/resources`,
        { method: "POST", body: { location_uuid: salon.location.uuid, name: "R", quantity: 0 } },
      ],
      [
        `/workspaces/${ws}/resources`,
        { method: "POST", body: { location_uuid: salon.location.uuid, name: "R", quantity: 1.5 } },
      ],
      [
        `/workspaces/${ws}/resources`,
        { method: "POST", body: { location_uuid: salon.location.uuid, name: "R", quantity: "2" } },
      ],
      [
        `/workspaces/${ws}/resources`,
        { method: "POST", body: { location_uuid: salon.location.uuid, name: "R", kind: "sofa" } },
      ],
      [
        `/workspaces/${ws}/resources`,
        { method: "POST", body: { location_uuid: crypto.randomUUID(), name: "R" } },
      ],
      [`/workspaces/${ws}/resources?per_page=0`, {}],
      [`/workspaces/${ws}/resources?location_uuid=nope`, {}],
      [`/workspaces/${ws}/resources/nope/calendar`, {}],
      [`/workspaces/${ws}/resources/${crypto.randomUUID()}/calendar`, {}],
      [
        `/workspaces/${ws}/resources/${basins.uuid}/blocked-spots`,
        { method: "POST", rawBody: "nope", headers: { "content-type": "application/json" } },
      ],
      [
        `/workspaces/${ws}/resources/${basins.uuid}/blocked-spots`,
        { method: "POST", body: { starts_at: "tomorrow", ends_at: "2033-01-01T00:00:00Z" } },
      ],
      [
        `/workspaces/${ws}/resources/${basins.uuid}/blocked-spots`,
        {
          method: "POST",
          body: { starts_at: "2033-01-01T10:00:00Z", ends_at: "2033-01-01T09:00:00Z" },
        },
      ],
      [
        `/workspaces/${ws}/resources/${basins.uuid}/blocked-spots`,
        {
          method: "POST",
          body: { starts_at: "2033-01-01T10:00:00Z", ends_at: "2033-01-01T11:00:00Z", unit: 0 },
        },
      ],
      [
        `/workspaces/${ws}/resources/${basins.uuid}/blocked-spots`,
        {
          method: "POST",
          body: { starts_at: "2033-01-01T10:00:00Z", ends_at: "2033-01-01T11:00:00Z", unit: 4 },
        },
      ],
      [
        `/workspaces/${ws}/resources/${basins.uuid}/blocked-spots`,
        {
          method: "POST",
          body: { starts_at: "2033-01-01T10:00:00Z", ends_at: "2033-01-01T11:00:00Z", unit: "1" },
        },
      ],
      [
        `/workspaces/${ws}/resources/${basins.uuid}/blocked-spots`,
        {
          method: "POST",
          body: { starts_at: "2033-01-01T10:00:00.5+02:00", ends_at: "2033-01-01T11:00:00Z" },
        },
      ],
    ];
    for (const [path, sent] of bad) {
      const res = await admin(path, sent);
      expect(
        res.status,
        `${path} ${JSON.stringify(sent)}: ${JSON.stringify(res.body)}`,
      ).toBeGreaterThanOrEqual(400);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
      expectErrorShape(res.body);
    }
    const publicBad = [
      "/resources?location_uuid=nope",
      "/resources?per_page=1000",
      "/resources?page=0",
    ];
    for (const path of publicBad) {
      const res = await salon.ws.api(path);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(422);
      expectErrorShape(res.body);
    }
    const after = await everyShard
      .prepare("select count(*) as n from resources where workspace_id = ?")
      .bind(ws)
      .first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
    const blocks = await everyShard
      .prepare("select count(*) as n from resource_blocks where resource_id = ? and starts_at < ?")
      .bind(basins.uuid, Date.parse("2033-02-01T00:00:00Z"))
      .first<{ n: number }>();
    expect(blocks?.n).toBe(0);
  });
});

describe("a booking that holds one room twice", () => {
  it("reschedules onto its own time (room replaced by itself) and changes one staffer", async () => {
    const date = monday(12);
    const solo = await service({
      name: "Solo",
      duration: 30,
      price: 1000,
      resource_uuids: [ten[0]?.uuid ?? ""],
    });
    const cart = await salon.ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [
          {
            datetime_start: at("10:00", date),
            services: [
              { service_uuid: solo.uuid, staffer_uuid: staff[0] },
              { service_uuid: solo.uuid, staffer_uuid: staff[1] },
            ],
          },
        ],
        ...customer(),
      },
    });
    expect(cart.status, JSON.stringify(cart.body)).toBe(201);
    const id = cart.body.bookings[0].uuid as string;
    // +30 min: the first service moves onto the second's old time, on the same unit.
    const moved = await salon.ws.api(`/bookings/${id}/reschedule`, {
      method: "PUT",
      body: { reserved_on: at("10:30", date) },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const changed = await salon.ws.api(`/bookings/${id}/staffer`, {
      method: "PUT",
      body: { staffer_uuid: staff[2], service_uuid: solo.uuid },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await book(at("10:00", date), solo.uuid)).status).toBe(201);
    expect((await book(at("10:30", date), solo.uuid)).status).toBe(409);
    expect((await book(at("11:00", date), solo.uuid)).status).toBe(409);
    expect((await book(at("11:30", date), solo.uuid)).status).toBe(201);
    expect(await unitOverlaps(salon.ws.id)).toEqual([]);
    await expectUnitsInSync(salon.ws.id, [ten[0] as TestResource]);
    await expectInSync(salon.ws.id, staff);
  });
});

describe("alternatives when units are what is missing", () => {
  it("offers only starts that slot search lists and a booking can take", async () => {
    const date = monday(13);
    for (const s of staff.slice(0, 3)) {
      expect((await book(at("10:00", date), wash.uuid, s)).status).toBe(201);
    }
    const refused = await book(at("10:00", date), wash.uuid, staff[3]);
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    const alternatives = (refused.body.alternatives ?? []) as {
      start: string;
      staffer_uuid: string;
    }[];
    expect(alternatives.length).toBeGreaterThan(0);
    const slots = await salon.ws.api(
      `/locations/${salon.location.uuid}/time-slots?service_uuid=${wash.uuid}&range_start=${date}&range_end=${date}&timezone=UTC`,
    );
    expect(slots.status).toBe(200);
    const listed = new Set(
      (slots.body.dates[0].slots as { start: string }[]).map((s) => `${date}T${s.start}:00Z`),
    );
    for (const alt of alternatives) {
      const start = new Date(Date.parse(alt.start)).toISOString().replace(".000Z", "Z");
      if (start.slice(0, 10) === date) expect(listed.has(start), start).toBe(true);
      // The 10:00–10:30 basins are all taken: no alternative may overlap them.
      const t = Date.parse(alt.start);
      expect(
        t + 30 * 60_000 <= Date.parse(at("10:00", date)) || t >= Date.parse(at("10:30", date)),
        alt.start,
      ).toBe(true);
    }
    const first = alternatives[0] as { start: string; staffer_uuid: string };
    expect((await book(first.start, wash.uuid, first.staffer_uuid)).status).toBe(201);
  });
});

describe("faults on the unit paths the fault suite does not cover", () => {
  afterEach(() => failpoints.disarmAll());

  interface Ctx {
    date: string;
    booking?: string;
    reservation?: string;
  }
  const reserveWash = (date: string) =>
    salon.ws.api("/reservations", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [{ datetime_start: at("10:00", date), services: [{ service_uuid: wash.uuid }] }],
      },
    });
  const count = async (sql: string, ...binds: unknown[]) =>
    (
      await everyShard
        .prepare(sql)
        .bind(...binds)
        .first<{ n: number }>()
    )?.n ?? 0;
  const basinEntriesAt10 = (ctx: Ctx, kind: string) =>
    count(
      "select count(*) as n from calendar_entries where resource_id = ? and starts_at = ? and kind = ?",
      basins.uuid,
      Date.parse(at("10:00", ctx.date)),
      kind,
    );

  const PATHS: {
    name: string;
    setup: (ctx: Ctx) => Promise<void>;
    act: (ctx: Ctx) => Promise<Received>;
    status: number;
    /** Basin entries at 10:00 once written: [booking, held]. */
    after: [number, number];
  }[] = [
    {
      name: "replace service onto a basin",
      setup: async (ctx) => {
        const res = await book(at("10:00", ctx.date), salon.cut.uuid, staff[0]);
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        ctx.booking = res.body.uuid;
      },
      act: (ctx) =>
        salon.ws.api(`/bookings/${ctx.booking}/services`, {
          method: "PUT",
          body: { service_uuid: wash.uuid },
        }),
      status: 200,
      after: [1, 0],
    },
    {
      name: "reservation of a basin",
      setup: async () => {},
      act: (ctx) => reserveWash(ctx.date),
      status: 201,
      after: [0, 1],
    },
    {
      name: "booking that uses the reservation",
      setup: async (ctx) => {
        const res = await reserveWash(ctx.date);
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        ctx.reservation = res.body.uuid;
      },
      act: (ctx) =>
        salon.ws.api("/bookings", {
          method: "POST",
          body: {
            location_uuid: salon.location.uuid,
            service_uuid: wash.uuid,
            reserved_on: at("10:00", ctx.date),
            reservation_uuid: ctx.reservation,
            ...customer(),
          },
        }),
      status: 201,
      after: [1, 0],
    },
    {
      name: "reservation deleted",
      setup: async (ctx) => {
        const res = await reserveWash(ctx.date);
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        ctx.reservation = res.body.uuid;
      },
      act: (ctx) => salon.ws.api(`/reservations/${ctx.reservation}`, { method: "DELETE" }),
      status: 204,
      after: [0, 0],
    },
  ];

  // Weeks 31–38, one per test (only 10:00Z is used: the zone offset does not matter).
  let week = 31;
  const calendarBatch = (sql: string) => sql.includes("hold_fences");
  const calendars = () => [...staff, ...[1, 2, 3].map((u) => unitCalendarId(basins.uuid, u))];

  /** The basins at 10:00 take exactly 3 minus what is written, and the calendars equal D1. */
  async function expectBasinsRight(ctx: Ctx, after: [number, number]) {
    expect([await basinEntriesAt10(ctx, "booking"), await basinEntriesAt10(ctx, "held")]).toEqual(
      after,
    );
    await expectUnitsInSync(salon.ws.id, [basins]);
    await expectInSync(salon.ws.id, staff);
    const free = 3 - after[0] - after[1];
    const statuses: number[] = [];
    for (let k = 0; k <= free; k++)
      statuses.push((await book(at("10:00", ctx.date), wash.uuid)).status);
    expect(statuses).toEqual([...Array.from({ length: free }, () => 201), 409]);
    expect(await unitOverlaps(salon.ws.id)).toEqual([]);
  }

  describe.each(PATHS)("$name", (path) => {
    it("commits unheard: settles and answers success", async () => {
      const ctx: Ctx = { date: monday(week++) };
      await path.setup(ctx);
      failpoints.arm("d1.batch.committed", calendarBatch);
      const res = await path.act(ctx);
      expect(res.status, JSON.stringify(res.body)).toBe(path.status);
      await expectBasinsRight(ctx, path.after);
    });

    it("commits, answer and settlement lost: 500, then the alarm settles to D1", async () => {
      const ctx: Ctx = { date: monday(week++) };
      await path.setup(ctx);
      failpoints.arm("d1.batch.committed", calendarBatch);
      failpoints.arm("calendar.settle", () => true, 10);
      const res = await path.act(ctx);
      expect(res.status, JSON.stringify(res.body)).toBe(500);
      await expireHolds(salon.ws.id, calendars());
      await expectBasinsRight(ctx, path.after);
    });
  });
});

/**
 * Two changes of one booking that either order would both apply: each ends as
 * if they took turns, so the loser applies on top of the winner or, when the
 * winner's write is still settling, answers 409 `booking_changed` (the
 * contract's answer for a record changed under it); never `slot_unavailable`,
 * because the time it met was its own booking's.
 */
function expectTookTurns(results: ({ status: number; body: { code?: string } } | undefined)[]) {
  const seen = JSON.stringify(results.map((r) => r?.body));
  expect(results.filter((r) => r?.status === 200).length, seen).toBeGreaterThanOrEqual(1);
  for (const r of results) {
    if (r?.status !== 200)
      expect([r?.status, r?.body.code], seen).toEqual([409, "booking_changed"]);
  }
}

describe("two changes of one booking whose new unit the other is taking", () => {
  afterEach(() => failpoints.disarmAll());

  /**
   * Both reschedules read, then claim at once. The loser is refused twice over:
   * "replacing" on the booking's own old entries (staffer and unit 2: the record
   * is changing) and "overlap" on unit 1, which the winner is moving the same
   * booking onto. Either order of the two reschedules succeeds, so the loser
   * must replan on fresh state, not answer 409: a record changing outranks a
   * taken slot in every pass of the claim, whichever calendar sorts first, and
   * time held by the same booking is never someone else's.
   */
  async function race(sortsBeforeStaffer: boolean, week: number) {
    // The staffer whose id sorts last (or first), so the resource's can sort before (or after) it.
    const target = [...staff].sort().at(sortsBeforeStaffer ? -1 : 0) ?? "";
    let pair: TestResource | undefined;
    for (let i = 0; i < 20 && !pair; i++) {
      const r = await createResource(salon.ws, salon.location.uuid, {
        name: `Pair ${week}.${i}`,
        quantity: 2,
      });
      if (r.uuid < target === sortsBeforeStaffer) pair = r;
    }
    if (!pair) throw new Error("no resource id sorted as wanted");
    const rinse = await service({
      name: `Rinse ${week}`,
      duration: 30,
      price: 900,
      resource_uuids: [pair.uuid],
    });
    const date = monday(week);
    // The booking sits on unit 2 (unit 1 taken at 10:00); unit 2 is blocked all afternoon.
    const other = staff.find((s) => s !== target) ?? "";
    expect((await book(at("10:00", date), rinse.uuid, other)).status).toBe(201);
    const x = await book(at("10:00", date), rinse.uuid, target);
    expect(x.status, JSON.stringify(x.body)).toBe(201);
    const unitOf = await everyShard
      .prepare("select unit from calendar_entries where source_id = ? and resource_id is not null")
      .bind(x.body.uuid)
      .first<{ unit: number }>();
    expect(unitOf?.unit).toBe(2);
    const blocked = await block(pair, {
      unit: 2,
      starts_at: at("12:00", date),
      ends_at: at("16:00", date),
    });
    expect(blocked.status, JSON.stringify(blocked.body)).toBe(201);

    failpoints.meet("booking.change.before_write", 2, 1_000);
    const [a, b] = await Promise.all(
      ["13:00", "13:15"].map((t) =>
        salon.ws.api(`/bookings/${x.body.uuid}/reschedule`, {
          method: "PUT",
          body: { reserved_on: at(t, date) },
        }),
      ),
    );
    expect(await unitOverlaps(salon.ws.id)).toEqual([]);
    await expectUnitsInSync(salon.ws.id, [pair]);
    await expectInSync(salon.ws.id, staff);
    expectTookTurns([a, b]);
  }

  // Found in review, fixed: a spurious 409 slot_unavailable, first in the all-at-once
  // claim, then in the one-by-one pass after a partial grant. Three rounds: the refusal
  // depended on timing too, so one round could pass by luck.
  it("the unit's calendar sorts first: never a 409 slot_unavailable", async () => {
    for (const week of [14, 40, 41]) await race(true, week);
  });
});

describe("the same masking without resources (for comparison)", () => {
  afterEach(() => failpoints.disarmAll());

  // Two requests hand one booking to the same new staffer. Sequentially the second is a
  // no-op (200). The loser is refused "replacing" on the old staffer's calendar and
  // "overlap" (the same booking's new time, held by the winner) on the new one; when
  // the new staffer's calendar sorts first the loser hears the overlap.
  async function race(newSortsFirst: boolean, week: number) {
    const sorted = [...staff].sort();
    const [from, to] = newSortsFirst
      ? [sorted.at(-1) ?? "", sorted[0] ?? ""]
      : [sorted[0] ?? "", sorted.at(-1) ?? ""];
    const date = monday(week);
    const x = await book(at("10:00", date), salon.cut.uuid, from);
    expect(x.status, JSON.stringify(x.body)).toBe(201);
    failpoints.meet("booking.change.before_write", 2, 1_000);
    const results = await Promise.all(
      [0, 1].map(() =>
        salon.ws.api(`/bookings/${x.body.uuid}/staffer`, {
          method: "PUT",
          body: { staffer_uuid: to },
        }),
      ),
    );
    await expectInSync(salon.ws.id, staff);
    expectTookTurns(results);
  }

  // Found in review, fixed (older than resources, same cause as above): 409
  // slot_unavailable through the one-by-one pass (the winner confirmed, so the old
  // staffer's calendar granted the loser's part and the new staffer's refused it alone).
  it("the new staffer's calendar sorts first: never a 409 slot_unavailable", async () => {
    for (const week of [17, 42, 43]) await race(true, week);
  });
});

describe("a whole-day booking of 10 services × 10 resources moved onto its own time", () => {
  it("reschedules by one service's length, hands every service to one staffer, cancels", async () => {
    const date = monday(18);
    const cart = await salon.ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [
          {
            datetime_start: at("08:00", date),
            services: Array.from({ length: 10 }, () => ({ service_uuid: tenfold.uuid })),
          },
        ],
        ...customer(),
      },
    });
    expect(cart.status, JSON.stringify(cart.body)).toBe(201);
    const id = cart.body.bookings[0].uuid as string;
    // 10 × 20 minutes from 08:00Z; +20 minutes overlaps nine of its own services on every unit.
    const moved = await salon.ws.api(`/bookings/${id}/reschedule`, {
      method: "PUT",
      body: { reserved_on: at("08:20", date) },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const handed = await salon.ws.api(`/bookings/${id}/staffer`, {
      method: "PUT",
      body: { staffer_uuid: staff[3] },
    });
    expect(handed.status, JSON.stringify(handed.body)).toBe(200);
    await expectUnitsInSync(salon.ws.id, ten);
    await expectInSync(salon.ws.id, staff);
    expect((await book(at("08:00", date), tenfold.uuid, staff[0])).status).toBe(201);
    expect((await book(at("11:20", date), tenfold.uuid, staff[0])).status).toBe(409);
    const canceled = await salon.ws.api(`/bookings/${id}/status/cancel`, {
      method: "PUT",
      body: {},
    });
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    expect((await book(at("11:20", date), tenfold.uuid, staff[0])).status).toBe(201);
    expect(await unitOverlaps(salon.ws.id)).toEqual([]);
    await expectUnitsInSync(salon.ws.id, ten);
    await expectInSync(salon.ws.id, staff);
  });
});

describe("a unit calendar that lost its storage (namespace reset)", () => {
  it("loads its busy time from D1 before its first claim: no unit is handed out twice", async () => {
    const date = monday(19);
    for (const s of staff.slice(0, 3)) {
      expect((await book(at("10:00", date), wash.uuid, s)).status).toBe(201);
    }
    const blocked = await block(basins, {
      unit: 1,
      starts_at: at("14:00", date),
      ends_at: at("15:00", date),
    });
    expect(blocked.status).toBe(201);
    await expectUnitsInSync(salon.ws.id, [basins]);
    for (let unit = 1; unit <= 3; unit++) {
      const stub = calendarFor(env, salon.ws.id, unitCalendarId(basins.uuid, unit));
      await runInDurableObject(stub, (_instance, state) => {
        for (const table of ["entries", "holds", "replacing", "meta"]) {
          state.storage.sql.exec(`DELETE FROM ${table}`);
        }
      });
    }
    // A claim that reaches a wiped unit (a writer whose D1 read was older) is judged on D1:
    // unit 1 is booked at 10:00 and blocked at 14:00.
    const unit1 = unitCalendarId(basins.uuid, 1);
    for (const [from, to] of [
      ["10:00", "10:30"],
      ["14:15", "14:45"],
    ] as const) {
      const result = await calendarFor(env, salon.ws.id, unit1).claim({
        owner: { workspaceId: salon.ws.id, calendarId: unit1 },
        holdId: crypto.randomUUID(),
        entries: [
          {
            id: crypto.randomUUID(),
            kind: "booking",
            source: crypto.randomUUID(),
            start: Date.parse(at(from, date)),
            end: Date.parse(at(to, date)),
          },
        ],
        checkConflicts: true,
      });
      expect(result.ok, `${from}: ${JSON.stringify(result)}`).toBe(false);
    }
    // Through HTTP too: no fourth wash at 10:00, two at 14:00 (units 2 and 3).
    expect((await book(at("10:00", date), wash.uuid, staff[3])).status).toBe(409);
    const at14 = [];
    for (let k = 0; k < 3; k++) at14.push((await book(at("14:00", date), wash.uuid)).status);
    expect(at14).toEqual([201, 201, 409]);
    expect(await unitOverlaps(salon.ws.id)).toEqual([]);
    await expectUnitsInSync(salon.ws.id, [basins]);
  });
});

describe("a reservation's units when the first unit frees up before it is used", () => {
  it("the cart that uses it keeps units 2 and 3; unit 1 stays bookable; quantity agrees", async () => {
    const date = monday(21);
    const z = await book(at("10:00", date), wash.uuid, staff[0]);
    expect(z.status).toBe(201);
    const items = [0, 1].map(() => ({
      datetime_start: at("10:00", date),
      services: [{ service_uuid: wash.uuid }],
    }));
    const held = await salon.ws.api("/reservations", {
      method: "POST",
      body: { location_uuid: salon.location.uuid, items },
    });
    expect(held.status, JSON.stringify(held.body)).toBe(201);
    // Two basins held, one booked: none left.
    expect((await slotsOn(date, wash.uuid)).has("12:00")).toBe(false);
    const canceled = await salon.ws.api(`/bookings/${z.body.uuid}/status/cancel`, {
      method: "PUT",
      body: {},
    });
    expect(canceled.status).toBe(200);
    expect((await slotsOn(date, wash.uuid)).get("12:00")).toBe(1);
    const heldStaff = held.body.items.map(
      (i: { services: { staffer_uuid: string }[] }) => i.services[0]?.staffer_uuid,
    );
    const cart = await salon.ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: items.map((item, i) => ({
          ...item,
          services: [{ ...item.services[0], staffer_uuid: heldStaff[i] }],
        })),
        reservation_uuid: held.body.uuid,
        ...customer(),
      },
    });
    expect(cart.status, JSON.stringify(cart.body)).toBe(201);
    const { results } = await everyShard
      .prepare(
        "select unit from calendar_entries where resource_id = ? and starts_at = ? order by unit",
      )
      .bind(basins.uuid, Date.parse(at("10:00", date)))
      .all<{ unit: number }>();
    expect(results.map((r) => r.unit)).toEqual([2, 3]);
    expect((await slotsOn(date, wash.uuid)).get("12:00")).toBe(1);
    expect((await book(at("10:00", date), wash.uuid)).status).toBe(201);
    expect((await book(at("10:00", date), wash.uuid)).status).toBe(409);
    expect(await unitOverlaps(salon.ws.id)).toEqual([]);
    await expectUnitsInSync(salon.ws.id, [basins]);
    await expectInSync(salon.ws.id, staff);
  });
});
