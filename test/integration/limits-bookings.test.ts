import { beforeAll, describe, expect, it } from "vitest";
import { rowCount } from "../helpers/db";
import {
  createLocation,
  createStaffer,
  createWorkspace,
  type TestWorkspace,
  WEEKDAYS_9_TO_18,
} from "../helpers/factory";
import { customer, MONDAY } from "../helpers/salon";
import { createAccount } from "../helpers/shop";

// Carts at the reference's maxima: 10 items of 10 services each, 10 services for cart next
// and the cart calendar. One more is a 422 with the one error body.
const MAX_ITEMS = 10;
const MAX_SERVICES = 10;
const DURATION_MIN = 15;

let ws: TestWorkspace;
let location: { uuid: string };
let staffers: { uuid: string }[];
let services: { uuid: string; price: number; name: string }[];
let booked: { uuid: string }[] = [];

beforeAll(async () => {
  ws = await createWorkspace();
  location = await createLocation(ws, { timezone: "Europe/Berlin" });
  staffers = [];
  for (let i = 0; i < MAX_SERVICES; i++) {
    staffers.push(
      await createStaffer(ws, [location.uuid], {
        first_name: `Staff ${i}`,
        schedule: WEEKDAYS_9_TO_18(location.uuid),
      }),
    );
  }
  services = [];
  for (let i = 0; i < MAX_SERVICES; i++) {
    const res = await ws.api("/services", {
      method: "POST",
      body: { name: `Step ${i}`, duration: DURATION_MIN, price: 1000 + i },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    services.push(res.body);
  }
});

const minutes = (iso: string, add: number) =>
  new Date(Date.parse(iso) + add * 60_000).toISOString().replace(".000Z", "Z");
const day = (offset: number) =>
  new Date(Date.parse(`${MONDAY}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
/** Service i costs 1000 + i: the ten together. */
const PRICE_OF_ALL = Array.from({ length: MAX_SERVICES }, (_, i) => 1000 + i).reduce(
  (a, b) => a + b,
  0,
);

/** The one error body: message, code and the field's messages. */
function expect422(res: { status: number; body: unknown }, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body).toEqual({
    message: expect.any(String),
    code: "validation_failed",
    errors: expect.objectContaining({ [field]: [expect.any(String)] }),
  });
}

const allServices = (withStaff: boolean) =>
  services.map((s, j) => ({
    service_uuid: s.uuid,
    ...(withStaff ? { staffer_uuid: staffers[j]?.uuid } : {}),
  }));

describe("cart time slots with 10 services", () => {
  it("finds the next date on which 10 services fit back to back", async () => {
    const res = await ws.api(`/locations/${location.uuid}/time-slots/cart/next`, {
      method: "POST",
      body: { services: allServices(false) },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const [entry] = res.body.data;
    expect(entry).toMatchObject({ timezone: "Europe/Berlin", currency: "EUR" });
    expect(entry.dates).toHaveLength(1);
    const { slot } = entry.dates[0];
    expect(slot.price).toBe(PRICE_OF_ALL);
    expect(slot.staffers).toHaveLength(MAX_SERVICES);
    expect(slot.end_formatted - slot.start_formatted).toBe(MAX_SERVICES * DURATION_MIN * 60);
  });

  it("takes 10 services with their staffers on the cart calendar", async () => {
    const res = await ws.api(`/locations/${location.uuid}/time-slots/cart`, {
      method: "POST",
      body: { services: allServices(true), range_start: day(0), range_end: day(6) },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [entry] = res.body.data;
    // Monday to Friday fit, the weekend does not.
    expect(entry.dates.map((d: { date: string }) => d.date)).toEqual([0, 1, 2, 3, 4].map(day));
    for (const d of entry.dates) {
      expect(d.slot).toMatchObject({
        start: "09:00",
        end: "11:30",
        price: PRICE_OF_ALL,
        staffers: staffers.map((s) => ({ uuid: s.uuid })),
      });
    }
  });

  it.each([
    ["cart/next", {}],
    ["cart", { range_start: day(0), range_end: day(6) }],
  ])("refuses 11 services on %s with 422", async (path, extra) => {
    const eleven = [...allServices(false), { service_uuid: services[0]?.uuid }];
    expect422(
      await ws.api(`/locations/${location.uuid}/time-slots/${path}`, {
        method: "POST",
        body: { services: eleven, ...extra },
      }),
      "services",
    );
  });
});

describe("POST /bookings/cart with 10 items of 10 services", () => {
  it("books all 100 services in one order, every item and service present", async () => {
    // Items on Monday to Friday at 09:00 and 13:00 Berlin (08:00Z, 12:00Z); the morning items
    // name their staffers, the afternoon ones are auto-allocated.
    const items = Array.from({ length: MAX_ITEMS }, (_, k) => ({
      datetime_start: `${day(Math.floor(k / 2))}T${k % 2 === 0 ? "08" : "12"}:00:00Z`,
      services: allServices(k % 2 === 0),
    }));
    const before = await rowCount("bookings", ws.id);
    const res = await ws.api("/bookings/cart", {
      method: "POST",
      body: { location_uuid: location.uuid, items, ...customer("+49 151 33333333") },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.bookings).toHaveLength(MAX_ITEMS);
    const orderId = res.body.bookings[0].order.uuid;
    res.body.bookings.forEach(
      (
        booking: {
          start_time: string;
          end_time: string;
          order: { uuid: string; total: number };
          ordered_services: Record<string, unknown>[];
        },
        k: number,
      ) => {
        const start = items[k]?.datetime_start ?? "";
        expect(booking).toMatchObject({
          location_uuid: location.uuid,
          start_time: start,
          end_time: minutes(start, MAX_SERVICES * DURATION_MIN),
          is_canceled: false,
          is_completed: false,
          order: { uuid: orderId, total: MAX_ITEMS * PRICE_OF_ALL },
        });
        expect(booking.ordered_services).toHaveLength(MAX_SERVICES);
        booking.ordered_services.forEach((s, j) => {
          expect(s).toMatchObject({
            service_uuid: services[j]?.uuid,
            name: `Step ${j}`,
            price: 1000 + j,
            reserved_on: minutes(start, j * DURATION_MIN),
            reserved_until: minutes(start, (j + 1) * DURATION_MIN),
          });
          if (k % 2 === 0) expect(s.staffer_uuid).toBe(staffers[j]?.uuid);
          else expect(staffers.map((x) => x.uuid)).toContain(s.staffer_uuid);
        });
      },
    );
    expect(await rowCount("bookings", ws.id)).toBe(before + MAX_ITEMS);
    booked = res.body.bookings;
    for (const booking of res.body.bookings) {
      const fetched = await ws.api(`/bookings/${booking.uuid}`);
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual(booking);
    }
    const listed = await ws.api("/bookings?per_page=100");
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((b: { uuid: string }) => b.uuid)).toEqual(
      expect.arrayContaining(res.body.bookings.map((b: { uuid: string }) => b.uuid)),
    );
  });

  it.each([
    [
      "items",
      () =>
        Array.from({ length: MAX_ITEMS + 1 }, (_, k) => ({
          datetime_start: `${day(14)}T${String(8 + (k % 8)).padStart(2, "0")}:00:00Z`,
          services: [{ service_uuid: services[0]?.uuid }],
        })),
    ],
    [
      "items.0.services",
      () => [
        {
          datetime_start: `${day(14)}T08:00:00Z`,
          services: [...allServices(false), { service_uuid: services[0]?.uuid }],
        },
      ],
    ],
  ])("refuses one %s past the maximum with 422 and books nothing", async (field, items) => {
    const before = await rowCount("bookings", ws.id);
    expect422(
      await ws.api("/bookings/cart", {
        method: "POST",
        body: { location_uuid: location.uuid, items: items(), ...customer("+49 151 44444444") },
      }),
      field,
    );
    expect(await rowCount("bookings", ws.id)).toBe(before);
  });
});

describe("completing a booking with the largest paid_amount", () => {
  // Whole-order amounts are capped at the largest order's base amount, 3·10^15 minor units.
  const MAX_AMOUNT = 3_000_000_000_000_000;

  it("refuses one past the cap, as a number or as a string, and takes the cap", async () => {
    const account = await createAccount(ws, location.uuid, "cash");
    const complete = (paid_amount: number | string) =>
      ws.api(`/bookings/${booked[0]?.uuid}/status/complete`, {
        method: "PUT",
        body: { account_uuid: account.uuid, paid_amount },
      });
    expect422(await complete(MAX_AMOUNT + 1), "paid_amount");
    expect422(await complete(String(MAX_AMOUNT + 1)), "paid_amount");
    const res = await complete(String(MAX_AMOUNT));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.is_completed).toBe(true);
    expect(res.body.order.amount_paid).toBe(MAX_AMOUNT);
  });
});
