import { beforeAll, describe, expect, it } from "vitest";
import { createLocation, createStaffer, WEEKDAYS_9_TO_18 } from "../helpers/factory";
import { admin } from "../helpers/http";
import { createPublishableKey, type PublishableKey } from "../helpers/keys";
import { createResource } from "../helpers/resources";
import { at, createSalon, customer, type Salon } from "../helpers/salon";

// Use-cases refuse about domain things (an item's start, a service's staffer);
// each route names them as its body does. These are the whole error bodies,
// field names, order and summary included, of the three booking-shaped bodies
// and of the catalogue's writes: the same on the code before the mapping moved
// to the routes as after.
let salon: Salon;
let pk: PublishableKey;
let outsider: string;
let elsewhere: string;
const later = "2030-03-11";

beforeAll(async () => {
  salon = await createSalon(2);
  pk = await createPublishableKey(salon.ws);
  elsewhere = (await createLocation(salon.ws, { name: "Elsewhere" })).uuid;
  outsider = (await createStaffer(salon.ws, [elsewhere], { schedule: WEEKDAYS_9_TO_18(elsewhere) }))
    .uuid;
});

const staffer = (i: number) => salon.staffers[i]?.uuid ?? "";
const unknown = "00000000-0000-4000-8000-000000000000";
// Errors as their entries, so that equal also means in the same order.
const invalid = (message: string, errors: Record<string, string[]>) => ({
  status: 422,
  body: { message, code: "validation_failed", errors: Object.entries(errors) },
});
const answer = async (res: Promise<{ status: number; body: { errors?: object } }>) => {
  const { status, body } = await res;
  return { status, body: body.errors ? { ...body, errors: Object.entries(body.errors) } : body };
};

const single = (body: Record<string, unknown>, api = salon.ws.api) =>
  answer(
    api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: at("10:00", later),
        ...customer(),
        ...body,
      },
    }),
  );
const cart = (body: Record<string, unknown>, api = salon.ws.api) =>
  answer(
    api("/bookings/cart", {
      method: "POST",
      body: { location_uuid: salon.location.uuid, ...customer(), ...body },
    }),
  );
const reserve = (body: Record<string, unknown>, api = salon.ws.api) =>
  api("/reservations", { method: "POST", body: { location_uuid: salon.location.uuid, ...body } });
const item = (start: string, services: Record<string, unknown>[]) => ({
  datetime_start: start,
  services,
});
const cut = (over: Record<string, unknown> = {}) => ({ service_uuid: salon.cut.uuid, ...over });
const colour = (over: Record<string, unknown> = {}) => ({
  service_uuid: salon.colour.uuid,
  ...over,
});

describe("a single booking's refusals, at its top-level fields", () => {
  it("the customer's phone, the location, the service, the staffer, the start", async () => {
    expect(await single({ customer_phone: "12" })).toEqual(
      invalid("Must be a valid phone number.", {
        customer_phone: ["Must be a valid phone number."],
      }),
    );
    expect(await single({ location_uuid: unknown })).toEqual(
      invalid("Unknown location.", { location_uuid: ["Unknown location."] }),
    );
    expect(await single({ service_uuid: unknown })).toEqual(
      invalid("Unknown service.", { service_uuid: ["Unknown service."] }),
    );
    const notHere =
      "The staffer cannot be booked for this service here (active in the booking widget, attached to the location and the service).";
    expect(await single({ staffer_uuid: outsider })).toEqual(
      invalid(notHere, { staffer_uuid: [notHere] }),
    );
    expect(await single({ reserved_on: at("10:00", "2020-03-02") })).toEqual(
      invalid("The time is in the past or inside the minimum notice.", {
        reserved_on: ["The time is in the past or inside the minimum notice."],
      }),
    );
    expect(await single({ reserved_on: at("03:00", later) })).toEqual(
      invalid("The time is outside the working hours of every eligible staffer.", {
        reserved_on: ["The time is outside the working hours of every eligible staffer."],
      }),
    );
  });

  it("a reservation: unknown, or holding more than the body asks for", async () => {
    expect(await single({ reservation_uuid: unknown })).toEqual(
      invalid("Unknown reservation.", { reservation_uuid: ["Unknown reservation."] }),
    );
    const held = await reserve({
      items: [
        item(at("09:00", later), [cut({ staffer_uuid: staffer(0) })]),
        item(at("12:00", later), [cut()]),
      ],
    });
    expect(held.status, JSON.stringify(held.body)).toBe(201);
    expect(
      await single({
        reservation_uuid: held.body.uuid,
        service_uuid: salon.colour.uuid,
        staffer_uuid: staffer(1),
      }),
    ).toEqual(
      invalid("The reservation holds 2 item(s); book all of them. (and 3 more errors)", {
        reservation_uuid: ["The reservation holds 2 item(s); book all of them."],
        reserved_on: [`Must be the reservation's start, ${at("09:00", later)}.`],
        service_uuid: ["Must be the reserved service."],
        staffer_uuid: ["Must be the reserved staffer (or left out)."],
      }),
    );
  });
});

describe("a cart's refusals, by item and service", () => {
  it("several at once, in the order of the items", async () => {
    const notHere =
      "The staffer cannot be booked for this service here (active in the booking widget, attached to the location and the service).";
    expect(
      await cart({
        items: [
          item(at("09:00", later), [cut(), { service_uuid: unknown }]),
          item(at("12:00", later), [colour({ staffer_uuid: outsider })]),
        ],
      }),
    ).toEqual(
      invalid("Unknown service. (and 1 more error)", {
        "items.0.services.1.service_uuid": ["Unknown service."],
        "items.1.services.0.staffer_uuid": [notHere],
      }),
    );
    expect(
      await cart({
        items: [item(at("09:00", later), [cut()]), item(at("10:00", "2020-03-02"), [cut()])],
      }),
    ).toEqual(
      invalid("The time is in the past or inside the minimum notice.", {
        "items.1.datetime_start": ["The time is in the past or inside the minimum notice."],
      }),
    );
  });

  it("against the reservation it uses", async () => {
    const held = await reserve({
      items: [item(at("14:00", later), [cut({ staffer_uuid: staffer(0) }), colour()])],
    });
    expect(held.status, JSON.stringify(held.body)).toBe(201);
    const res = await cart({
      location_uuid: elsewhere,
      reservation_uuid: held.body.uuid,
      items: [
        item(at("15:00", later), [cut({ staffer_uuid: staffer(1) })]),
        item(at("16:00", later), [cut()]),
      ],
    });
    expect(res).toEqual(
      invalid("Must be the reservation's location. (and 4 more errors)", {
        location_uuid: ["Must be the reservation's location."],
        items: ["The reservation holds 1 item(s); book all of them."],
        "items.0.datetime_start": [`Must be the reservation's start, ${at("14:00", later)}.`],
        "items.0.services.0.service_uuid": ["The reservation holds 2 service(s) in this item."],
        "items.0.services.0.staffer_uuid": ["Must be the reserved staffer (or left out)."],
      }),
    );
  });

  it("a publishable key's bounds: services in all, staff time", async () => {
    const visitor = (path: string, sent: Parameters<typeof pk.api>[1]) =>
      pk.api(path, { ...sent, headers: { "cf-connecting-ip": "203.0.113.77" } });
    expect(
      await cart(
        {
          items: [
            item(at("09:00", later), [cut(), cut()]),
            item(at("12:00", later), [cut(), cut(), cut()]),
          ],
        },
        visitor,
      ),
    ).toEqual(
      invalid("A booking with a publishable key books at most 4 services in all.", {
        "items.1.services": ["A booking with a publishable key books at most 4 services in all."],
      }),
    );
    const long =
      "A booking with a publishable key books at most 4 hours of staff time (the sum of its services' durations).";
    expect(
      await cart({ items: [item(at("09:00", later), [colour(), colour(), colour()])] }, visitor),
    ).toEqual(invalid(long, { "items.0.services.2.service_uuid": [long] }));
  });
});

describe("a reservation's refusals", () => {
  it("a publishable key's bounds and ttl, and an unknown service", async () => {
    const visitor = (path: string, sent: Parameters<typeof pk.api>[1]) =>
      pk.api(path, { ...sent, headers: { "cf-connecting-ip": "203.0.113.78" } });
    expect(
      await answer(
        reserve(
          {
            ttl_seconds: 900,
            items: [item(at("09:00", later), [cut(), cut(), cut(), cut(), cut()])],
          },
          visitor,
        ),
      ),
    ).toEqual(
      invalid("At most 600 seconds with a publishable key. (and 1 more error)", {
        ttl_seconds: ["At most 600 seconds with a publishable key."],
        "items.0.services": [
          "A reservation with a publishable key holds at most 4 services in all.",
        ],
      }),
    );
    expect(
      await answer(
        reserve({ items: [item(at("09:00", later), [cut(), { service_uuid: unknown }])] }),
      ),
    ).toEqual(
      invalid("Unknown service.", { "items.0.services.1.service_uuid": ["Unknown service."] }),
    );
  });
});

describe("the catalogue's refusals", () => {
  it("a service: name, category, locations, staffers and each resource", async () => {
    const res = await answer(
      salon.ws.api("/services", {
        method: "POST",
        body: {
          name: "Cut at example.com",
          duration: 30,
          price: 100,
          category_uuid: unknown,
          location_uuids: [unknown],
          staffer_uuids: [unknown],
          resource_uuids: [unknown],
        },
      }),
    );
    expect(res.status).toBe(422);
    const errors = (res.body as { errors: [string, string[]][] }).errors;
    expect(errors.map(([field]) => field)).toEqual([
      "name",
      "category_uuid",
      "location_uuids",
      "staffer_uuids",
      "resource_uuids.0",
    ]);
    expect((res.body as { message: string }).message).toMatch(
      /^Must not contain .* \(and 4 more errors\)$/,
    );
  });

  it("a good: category, the stock's location, a taken article", async () => {
    const body = {
      name: "Shampoo",
      article: `SH-${crypto.randomUUID().slice(0, 8)}`,
      is_payable: true,
      price: 100,
      unit: "pcs",
      is_consumable: false,
    };
    expect((await salon.ws.api("/goods", { method: "POST", body })).status).toBe(201);
    expect(
      await answer(
        salon.ws.api("/goods", {
          method: "POST",
          body: {
            ...body,
            category_uuid: unknown,
            initial_stock: { is_set: true, location_uuid: unknown, quantity: 1, unit_price: 100 },
          },
        }),
      ),
    ).toEqual(
      invalid("Unknown goods category. (and 2 more errors)", {
        category_uuid: ["Unknown goods category."],
        "initial_stock.location_uuid": ["Unknown location."],
        article: ["Another good of the workspace has this article."],
      }),
    );
  });

  it("a blocked spot, a resource and its block, a search range", async () => {
    expect(
      await answer(
        salon.ws.api(`/staffers/${staffer(0)}/blocked-spots`, {
          method: "POST",
          body: {
            location_uuid: elsewhere,
            starts_at: at("09:00", later),
            ends_at: at("10:00", later),
          },
        }),
      ),
    ).toEqual(
      invalid("The staffer is not attached to this location.", {
        location_uuid: ["The staffer is not attached to this location."],
      }),
    );
    expect(
      await answer(
        admin(`/workspaces/${salon.ws.id}/resources`, {
          method: "POST",
          body: { location_uuid: unknown, name: "Room" },
        }),
      ),
    ).toEqual(invalid("Unknown location.", { location_uuid: ["Unknown location."] }));
    const room = await createResource(salon.ws, salon.location.uuid, { quantity: 2 });
    expect(
      await answer(
        admin(`/workspaces/${salon.ws.id}/resources/${room.uuid}/blocked-spots`, {
          method: "POST",
          body: { unit: 3, starts_at: at("09:00", later), ends_at: at("10:00", later) },
        }),
      ),
    ).toEqual(invalid("The resource has 2 units.", { unit: ["The resource has 2 units."] }));
    const slots = (start: string, end: string) =>
      answer(
        salon.ws.api(
          `/locations/${salon.location.uuid}/time-slots?service_uuid=${salon.cut.uuid}&range_start=${start}&range_end=${end}`,
        ),
      );
    expect(await slots("2030-03-05", "2030-03-04")).toEqual(
      invalid("Must not be before range_start.", {
        range_end: ["Must not be before range_start."],
      }),
    );
    expect(await slots("2030-03-01", "2030-06-01")).toEqual(
      invalid("The range may span at most 62 days.", {
        range_end: ["The range may span at most 62 days."],
      }),
    );
  });
});
