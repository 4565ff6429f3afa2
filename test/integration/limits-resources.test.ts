import { beforeAll, describe, expect, it } from "vitest";
import { expectInSync, expectUnitsInSync, unitOverlaps } from "../helpers/calendar";
import { rowCount } from "../helpers/db";
import {
  createLocation,
  createStaffer,
  createWorkspace,
  type TestWorkspace,
  WEEKDAYS_9_TO_18,
} from "../helpers/factory";
import { createResource, type TestResource } from "../helpers/resources";
import { customer } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

/**
 * Resources at the maxima: every service of a 10 × 10 cart needs 10
 * resources, so one write claims 10 staffers and 10 unit calendars and
 * writes 100 booked services with 1,100 calendar entries, each statement
 * under D1's 100 bound parameters.
 */
const MAX = 10;
const DURATION_MIN = 15;
// Mondays from 2031-03-03; Berlin is UTC+1 until the end of March.
const day = (offset: number) =>
  new Date(Date.parse("2031-03-03T00:00:00Z") + offset * 86_400_000).toISOString().slice(0, 10);

let ws: TestWorkspace;
let location: { uuid: string };
let staffers: { uuid: string }[];
let resources: TestResource[];
let services: { uuid: string }[];

beforeAll(async () => {
  ws = await createWorkspace();
  location = await createLocation(ws, { timezone: "Europe/Berlin" });
  staffers = [];
  for (let i = 0; i < MAX; i++) {
    staffers.push(
      await createStaffer(ws, [location.uuid], {
        first_name: `Staff ${i}`,
        schedule: WEEKDAYS_9_TO_18(location.uuid),
      }),
    );
  }
  resources = [];
  for (let i = 0; i < MAX; i++) {
    resources.push(await createResource(ws, location.uuid, { name: `Resource ${i}` }));
  }
  services = [];
  for (let i = 0; i < MAX; i++) {
    const res = await ws.api("/services", {
      method: "POST",
      body: {
        name: `Step ${i}`,
        duration: DURATION_MIN,
        price: 1000,
        resource_uuids: resources.map((r) => r.uuid),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    services.push(res.body);
  }
});

const allServices = () => services.map((s) => ({ service_uuid: s.uuid }));
const sorted = () => resources.map((r) => r.uuid).sort();

describe("a 10 × 10 cart whose every service needs 10 resources", () => {
  it("books all 100 services with their 1,000 units, and moves and cancels them", async () => {
    const items = Array.from({ length: MAX }, (_, k) => ({
      datetime_start: `${day(Math.floor(k / 2))}T${k % 2 === 0 ? "08" : "12"}:00:00Z`,
      services: allServices(),
    }));
    const res = await ws.api("/bookings/cart", {
      method: "POST",
      body: { location_uuid: location.uuid, items, ...customer("+49 151 33333333") },
    });
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(201);
    expect(res.body.bookings).toHaveLength(MAX);
    for (const booking of res.body.bookings) {
      expect(booking.ordered_services).toHaveLength(MAX);
      for (const s of booking.ordered_services)
        expect([...s.resource_uuids].sort()).toEqual(sorted());
    }
    const { results } = await everyShard
      .prepare(
        "select count(*) as n from calendar_entries where workspace_id = ? and resource_id is not null",
      )
      .bind(ws.id)
      .all<{ n: number }>();
    expect(results[0]?.n).toBe(MAX * MAX * MAX);
    expect(await unitOverlaps(ws.id)).toEqual([]);

    // Sequential services take the same unit one after another; the whole day stays consistent.
    const first = res.body.bookings[0];
    const moved = await ws.api(`/bookings/${first.uuid}/reschedule`, {
      method: "PUT",
      body: { reserved_on: `${day(0)}T08:30:00Z` },
    });
    expect(moved.status, JSON.stringify(moved.body).slice(0, 500)).toBe(200);
    for (const s of moved.body.ordered_services)
      expect([...s.resource_uuids].sort()).toEqual(sorted());
    const canceled = await ws.api(`/bookings/${res.body.bookings[1].uuid}/status/cancel`, {
      method: "PUT",
      body: {},
    });
    expect(canceled.status).toBe(200);
    expect(await unitOverlaps(ws.id)).toEqual([]);
    await expectUnitsInSync(
      ws.id,
      resources.map((r) => ({ uuid: r.uuid, quantity: r.quantity })),
    );
    await expectInSync(
      ws.id,
      staffers.map((s) => s.uuid),
    );
  });

  it("finds cart slots and holds a 10 × 10 reservation with every unit", async () => {
    const next = await ws.api(`/locations/${location.uuid}/time-slots/cart/next`, {
      method: "POST",
      body: { services: allServices() },
    });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(next.body.data[0].dates).toHaveLength(1);

    const items = Array.from({ length: MAX }, (_, k) => ({
      datetime_start: `${day(7 + Math.floor(k / 2))}T${k % 2 === 0 ? "08" : "12"}:00:00Z`,
      services: allServices(),
    }));
    const before = await rowCount("calendar_entries", ws.id);
    const held = await ws.api("/reservations", {
      method: "POST",
      body: { location_uuid: location.uuid, items },
    });
    expect(held.status, JSON.stringify(held.body).slice(0, 500)).toBe(201);
    expect(await rowCount("calendar_entries", ws.id)).toBe(before + MAX * MAX * (MAX + 1));
    for (const item of held.body.items) {
      for (const s of item.services) expect([...s.resource_uuids].sort()).toEqual(sorted());
    }
    // Booked with the reservation: the held units become the booking's in one write.
    const booked = await ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: location.uuid,
        items,
        reservation_uuid: held.body.uuid,
        ...customer("+49 151 44444444"),
      },
    });
    expect(booked.status, JSON.stringify(booked.body).slice(0, 500)).toBe(201);
    expect(await rowCount("calendar_entries", ws.id)).toBe(before + MAX * MAX * (MAX + 1));
    expect(await unitOverlaps(ws.id)).toEqual([]);
    await expectUnitsInSync(
      ws.id,
      resources.map((r) => ({ uuid: r.uuid, quantity: r.quantity })),
    );
  });

  it("searches time slots for a service needing 10 resources", async () => {
    const date = day(14);
    const res = await ws.api(
      `/locations/${location.uuid}/time-slots?service_uuid=${services[0]?.uuid}&range_start=${date}&range_end=${date}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const slots = res.body.dates[0].slots as { quantity: number }[];
    // 09:00 … 17:45 every 15 minutes, one unit of each resource: one booking per start.
    expect(slots).toHaveLength(36);
    expect(slots.every((s) => s.quantity === 1)).toBe(true);
  });
});

describe("a resource of 50 units", () => {
  it("counts quantity up to the free staffers and books every unit", async () => {
    const big = await createResource(ws, location.uuid, { name: "Chairs", quantity: 50 });
    const svc = await ws.api("/services", {
      method: "POST",
      body: { name: "Seat", duration: 30, price: 500, resource_uuids: [big.uuid] },
    });
    expect(svc.status).toBe(201);
    const date = day(15);
    const slots = await ws.api(
      `/locations/${location.uuid}/time-slots?service_uuid=${svc.body.uuid}&range_start=${date}&range_end=${date}`,
    );
    expect(slots.body.dates[0].slots[0].quantity).toBe(MAX);
    const results = await Promise.all(
      staffers.map((s) =>
        ws.api("/bookings", {
          method: "POST",
          body: {
            location_uuid: location.uuid,
            service_uuid: svc.body.uuid,
            staffer_uuid: s.uuid,
            reserved_on: `${date}T08:00:00Z`,
            ...customer(),
          },
        }),
      ),
    );
    expect(
      results.map((r) => r.status),
      JSON.stringify(results.map((r) => r.body)).slice(0, 1500),
    ).toEqual(staffers.map(() => 201));
    const units = results.map((r) => r.body.ordered_services[0].resource_uuids);
    expect(units.every((u) => u.length === 1 && u[0] === big.uuid)).toBe(true);
    expect(await unitOverlaps(ws.id)).toEqual([]);
    await expectUnitsInSync(ws.id, [{ uuid: big.uuid, quantity: 50 }]);
  });
});
