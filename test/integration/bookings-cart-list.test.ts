import { beforeAll, describe, expect, it } from "vitest";
import { rowCount } from "../helpers/db";
import { d1RoundTrips } from "../helpers/http";
import { at, createSalon, customer, type Salon } from "../helpers/salon";

let salon: Salon;
beforeAll(async () => {
  salon = await createSalon(2);
});
const cart = (body: Record<string, unknown>) =>
  salon.ws.api("/bookings/cart", { method: "POST", body });

describe("POST /bookings/cart", () => {
  it("makes one order with one booking per item, services back to back", async () => {
    const [a, b] = salon.staffers;
    const res = await cart({
      location_uuid: salon.location.uuid,
      items: [
        {
          datetime_start: at("09:00", "2030-03-18"),
          services: [
            { service_uuid: salon.cut.uuid, staffer_uuid: a?.uuid },
            { service_uuid: salon.colour.uuid, staffer_uuid: b?.uuid },
          ],
        },
        {
          datetime_start: at("14:00", "2030-03-18"),
          services: [{ service_uuid: salon.colour.uuid }],
        },
      ],
      ...customer(),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(3);
    const [first, second] = res.body.bookings;
    expect(first.order.uuid).toBe(second.order.uuid);
    expect(first.order.total).toBe(3500 + 7900 + 7900);
    // Haircut 09:00–09:45 plus its 15-minute buffer, then colouring from 10:00.
    expect(
      first.ordered_services.map((s: { reserved_on: string; reserved_until: string }) => [
        s.reserved_on,
        s.reserved_until,
      ]),
    ).toEqual([
      ["2030-03-18T09:00:00Z", "2030-03-18T09:45:00Z"],
      ["2030-03-18T10:00:00Z", "2030-03-18T11:30:00Z"],
    ]);
    expect(first).toMatchObject({
      start_time: "2030-03-18T09:00:00Z",
      end_time: "2030-03-18T11:30:00Z",
    });
    expect(second.ordered_services[0].reserved_on).toBe("2030-03-18T14:00:00Z");
  });

  it("claims every item or none", async () => {
    const [a] = salon.staffers;
    const taken = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: at("15:00", "2030-03-19"),
        staffer_uuid: a?.uuid,
        ...customer(),
      },
    });
    expect(taken.status).toBe(201);
    const before = {
      bookings: await rowCount("bookings"),
      orders: await rowCount("orders"),
      entries: await rowCount("calendar_entries"),
    };
    const res = await cart({
      location_uuid: salon.location.uuid,
      items: [
        {
          datetime_start: at("09:00", "2030-03-19"),
          services: [{ service_uuid: salon.cut.uuid, staffer_uuid: a?.uuid }],
        },
        {
          datetime_start: at("15:00", "2030-03-19"),
          services: [{ service_uuid: salon.cut.uuid, staffer_uuid: a?.uuid }],
        },
      ],
      ...customer(),
    });
    expect(res.status).toBe(409);
    expect({
      bookings: await rowCount("bookings"),
      orders: await rowCount("orders"),
      entries: await rowCount("calendar_entries"),
    }).toEqual(before);
    // The first item's time was released, not left claimed.
    const free = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: at("09:00", "2030-03-19"),
        staffer_uuid: a?.uuid,
        ...customer(),
      },
    });
    expect(free.status).toBe(201);
  });

  it.each([
    ["no items", { items: [] }, "items"],
    [
      "11 items",
      {
        items: Array.from({ length: 11 }, () => ({
          datetime_start: at("09:00"),
          services: [{ service_uuid: crypto.randomUUID() }],
        })),
      },
      "items",
    ],
    ["no services", { items: [{ datetime_start: at("09:00"), services: [] }] }, "items.0.services"],
    [
      "sub-second start",
      {
        items: [
          {
            datetime_start: "2030-03-18T09:00:00.999+01:00",
            services: [{ service_uuid: crypto.randomUUID() }],
          },
        ],
      },
      "items.0.datetime_start",
    ],
    [
      "unknown service",
      {
        items: [
          {
            datetime_start: at("09:00", "2030-03-20"),
            services: [{ service_uuid: "00000000-0000-4000-8000-000000000009" }],
          },
        ],
      },
      "items.0.services.0.service_uuid",
    ],
  ])("rejects %s with 422", async (_, change, field) => {
    const res = await cart({ location_uuid: salon.location.uuid, ...customer(), ...change });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(Object.keys(res.body.errors)).toContain(field);
  });
});

describe("GET /bookings", () => {
  it("lists newest reservation first with local times, customer and status", async () => {
    const res = await salon.ws.api("/bookings?per_page=100");
    expect(res.status).toBe(200);
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(3);
    const starts = res.body.data.map((b: { start_time: string }) => b.start_time);
    expect(starts).toEqual([...starts].sort().reverse());
    const item = res.body.data.find(
      (b: { start_time: string }) => b.start_time === "2030-03-18T14:00:00Z",
    );
    expect(item).toMatchObject({
      start_time_local: "2030-03-18T15:00:00+01:00",
      timezone: "Europe/Berlin",
      is_canceled: false,
      is_completed: false,
      customer: { first_name: "Anna", phone: "+4915123456789" },
      status: { type: "new", name: "New" },
    });
    expect(item.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it("filters by staffer, state and reservation range (inclusive)", async () => {
    const [a] = salon.staffers;
    const byStaffer = await salon.ws.api(`/bookings?staffer_uuid=${a?.uuid}`);
    expect(byStaffer.body.meta.total).toBeGreaterThan(0);
    const upcoming = await salon.ws.api("/bookings?state=upcoming");
    expect(upcoming.body.meta.total).toBe((await salon.ws.api("/bookings")).body.meta.total);
    expect((await salon.ws.api("/bookings?state=archive")).body.meta.total).toBe(0);
    const range = await salon.ws.api(
      `/bookings?reserved_on_from=${at("14:00", "2030-03-18")}&reserved_on_to=${at("14:00", "2030-03-18")}`,
    );
    expect(range.body.data.map((b: { start_time: string }) => b.start_time)).toEqual([
      "2030-03-18T14:00:00Z",
    ]);
    expect((await salon.ws.api("/bookings?state=later")).status).toBe(422);
    expect((await salon.ws.api("/bookings?created_at_from=yesterday")).status).toBe(422);
  });
});
