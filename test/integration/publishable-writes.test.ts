import { beforeAll, describe, expect, it } from "vitest";
import { createLocation, createStaffer, WEEKDAYS_9_TO_18 } from "../helpers/factory";
import { type Client, PUBLIC, send } from "../helpers/http";
import { createPublishableKey } from "../helpers/keys";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

/**
 * What a stranger holding only the widget's publishable key may write and
 * read: a booking never rewrites a stored customer, a cancel writes only what
 * a customer may, and the staff list shows only what a booking page needs.
 */

let salon: Salon;
/** A fresh publishable key per test: the per-visitor rate limit is not what is tested here. */
let pk: Client;
beforeAll(async () => {
  salon = await createSalon();
});

const fresh = async () => {
  pk = (await createPublishableKey(salon.ws)).api;
};

let week = 0;
/** A Monday of its own per call (from 2030-04-01), so tests never share calendar time. */
const nextMonday = () => {
  week += 1;
  return new Date(Date.UTC(2030, 3, 1) + week * 7 * 86_400_000).toISOString().slice(0, 10);
};

const bookWith = (api: Client, reservedOn: string, over: Record<string, unknown> = {}) =>
  api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      reserved_on: reservedOn,
      ...over,
    },
  });

const storedCustomer = (id: string) =>
  everyShard
    .prepare(
      "SELECT first_name, last_name, middle_name, email, email_lower, phone FROM customers WHERE id = ?",
    )
    .bind(id)
    .first();

const VICTIM = {
  customer_phone: "+49 151 99887766",
  customer_first_name: "Vera",
  customer_last_name: "Victim",
  customer_middle_name: "Maria",
  customer_email: "vera@example.com",
};

describe("a booking through a publishable key never rewrites a stored customer", () => {
  let victimId: string;
  let stored: unknown;
  beforeAll(async () => {
    const first = await bookWith(salon.ws.api, at("08:00", nextMonday()), VICTIM);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    victimId = first.body.customer_uuid;
    stored = await storedCustomer(victimId);
    expect(stored).toMatchObject({ first_name: "Vera", email: "vera@example.com" });
  });

  it("20 single bookings with the victim's phone (in any spelling) and other names leave the record as it was", async () => {
    await fresh();
    const date = nextMonday();
    const spellings = ["+49 151 99887766", "0151 99887766", "+4915199887766", "0049 151 99887766"];
    for (let i = 0; i < 20; i++) {
      // From 20 addresses: a visitor's bookings a day are capped, which is not what is tested here.
      const visitor: Client = (path, sent = {}) =>
        pk(path, { ...sent, headers: { ...sent.headers, "cf-connecting-ip": `192.0.2.${i + 1}` } });
      const res = await bookWith(visitor, at(`${String(7 + (i % 9)).padStart(2, "0")}:00`, date), {
        customer_phone: spellings[i % spellings.length],
        customer_first_name: `Mallory ${i}`,
        customer_last_name: `Attacker ${i}`,
        customer_middle_name: `X${i}`,
        customer_email: `mallory${i}@evil.example`,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      // The booking is the stored customer's: the phone is who a customer is.
      expect(res.body.customer_uuid).toBe(victimId);
    }
    expect(await storedCustomer(victimId)).toEqual(stored);
  });

  it("cart bookings and a booking from a reservation leave the record as it was", async () => {
    await fresh();
    const date = nextMonday();
    const cart = await pk("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [
          { datetime_start: at("09:00", date), services: [{ service_uuid: salon.cut.uuid }] },
          { datetime_start: at("11:00", date), services: [{ service_uuid: salon.cut.uuid }] },
        ],
        ...VICTIM,
        customer_first_name: "Cart",
        customer_last_name: "Thief",
        customer_email: "cart@evil.example",
      },
    });
    expect(cart.status, JSON.stringify(cart.body)).toBe(201);
    expect(cart.body.bookings.map((b: { customer_uuid: string }) => b.customer_uuid)).toEqual([
      victimId,
      victimId,
    ]);

    const held = await pk("/reservations", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [
          { datetime_start: at("13:00", date), services: [{ service_uuid: salon.cut.uuid }] },
        ],
      },
    });
    expect(held.status, JSON.stringify(held.body)).toBe(201);
    const booked = await bookWith(pk, at("13:00", date), {
      ...VICTIM,
      customer_first_name: "Held",
      customer_email: "held@evil.example",
      reservation_uuid: held.body.uuid,
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(booked.body.customer_uuid).toBe(victimId);
    expect(await storedCustomer(victimId)).toEqual(stored);
  });

  it("does not fill in an e-mail or last name the stored customer lacks", async () => {
    await fresh();
    const date = nextMonday();
    const bare = { customer_phone: "+49 151 44455566", customer_first_name: "Bo" };
    const first = await bookWith(salon.ws.api, at("08:00", date), bare);
    expect(first.status).toBe(201);
    const before = await storedCustomer(first.body.customer_uuid);
    expect(before).toMatchObject({ email: null, last_name: null });
    const res = await bookWith(pk, at("10:00", date), {
      ...bare,
      customer_last_name: "Hijack",
      customer_email: "hijack@evil.example",
    });
    expect(res.status).toBe(201);
    expect(await storedCustomer(first.body.customer_uuid)).toEqual(before);
  });

  it("still creates a new customer with the names given", async () => {
    await fresh();
    const res = await bookWith(pk, at("09:00", nextMonday()), customer("+49 151 70000001"));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await storedCustomer(res.body.customer_uuid)).toEqual({
      first_name: "Anna",
      last_name: "Berg",
      middle_name: null,
      email: "anna@example.com",
      email_lower: "anna@example.com",
      phone: "+4915170000001",
    });
  });

  it("a secret key still refreshes the names and e-mail from its booking", async () => {
    const phone = "+49 151 70000002";
    const date = nextMonday();
    const first = await bookWith(salon.ws.api, at("08:00", date), customer(phone));
    const second = await bookWith(salon.ws.api, at("10:00", date), {
      ...customer(phone),
      customer_first_name: "Annabel",
      customer_email: "annabel@example.com",
    });
    expect(second.body.customer_uuid).toBe(first.body.customer_uuid);
    expect(await storedCustomer(first.body.customer_uuid)).toMatchObject({
      first_name: "Annabel",
      last_name: "Berg",
      email: "annabel@example.com",
    });
  });
});

const cancelWith = (api: Client, id: string, body: unknown) =>
  api(`/bookings/${id}/status/cancel`, { method: "PUT", body });

const bookingRow = (id: string) =>
  everyShard
    .prepare(
      "SELECT is_canceled, cancel_reason, canceled_by, internal_notes, version FROM bookings WHERE id = ?",
    )
    .bind(id)
    .first();

describe("a cancel through a publishable key writes only what a customer may", () => {
  it("refuses staff-only reasons, internal notes and a staffer with 422, every time, writing nothing", async () => {
    await fresh();
    const booked = await bookWith(pk, at("09:00", nextMonday()), customer());
    expect(booked.status).toBe(201);
    const before = await bookingRow(booked.body.uuid);
    const staffer = salon.staffers[0]?.uuid;
    const hostile: [Record<string, unknown>, string[]][] = [
      [{ cancel_reason: "didnt_come" }, ["cancel_reason"]],
      [{ cancel_reason: "wrong_order" }, ["cancel_reason"]],
      [{ cancel_reason: "spam" }, ["cancel_reason"]],
      [{ internal_notes: "Customer was rude" }, ["internal_notes"]],
      [{ internal_notes: "" }, ["internal_notes"]],
      [{ staffer_uuid: staffer }, ["staffer_uuid"]],
      [
        { cancel_reason: "didnt_come", internal_notes: "no show", staffer_uuid: staffer },
        ["cancel_reason", "internal_notes", "staffer_uuid"],
      ],
      [{ cancel_reason: "other", internal_notes: "x" }, ["internal_notes"]],
    ];
    for (let round = 0; round < 3; round++) {
      for (const [body, fields] of hostile) {
        const res = await cancelWith(pk, booked.body.uuid, body);
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.body.code).toBe("validation_failed");
        expect(Object.keys(res.body.errors).sort(), JSON.stringify(body)).toEqual(fields);
      }
    }
    expect(await bookingRow(booked.body.uuid)).toEqual(before);
    // Decided on the body alone, before any lookup: the same answer for a booking that does not exist.
    const unknown = crypto.randomUUID();
    expect((await cancelWith(pk, unknown, { internal_notes: "x" })).status).toBe(422);
    expect((await cancelWith(pk, unknown, {})).status).toBe(404);
    const still = await pk(`/bookings/${booked.body.uuid}`);
    expect(still.body).toMatchObject({
      is_canceled: false,
      canceled_by: null,
      cancel_reason: null,
    });
  });

  it.each(["canceled", "postponed", "other", undefined])(
    "records canceled_by customer with cancel_reason %s",
    async (reason) => {
      await fresh();
      const booked = await bookWith(pk, at("10:00", nextMonday()), customer());
      const res = await cancelWith(pk, booked.body.uuid, reason ? { cancel_reason: reason } : {});
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({
        is_canceled: true,
        canceled_by: "customer",
        cancel_reason: reason ?? "canceled",
      });
      expect(await bookingRow(booked.body.uuid)).toMatchObject({
        canceled_by: "customer",
        internal_notes: null,
      });
      expect((await pk(`/bookings/${booked.body.uuid}`)).body.canceled_by).toBe("customer");
    },
  );

  it("a secret key still cancels with any reason, internal notes and a staffer", async () => {
    const booked = await bookWith(salon.ws.api, at("11:00", nextMonday()), customer());
    const staffer = salon.staffers[1]?.uuid;
    const res = await cancelWith(salon.ws.api, booked.body.uuid, {
      cancel_reason: "didnt_come",
      internal_notes: "No show, second time",
      staffer_uuid: staffer,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ cancel_reason: "didnt_come", canceled_by: staffer });
    expect(await bookingRow(booked.body.uuid)).toMatchObject({
      internal_notes: "No show, second time",
      canceled_by: staffer,
    });
    const plain = await bookWith(salon.ws.api, at("13:00", nextMonday()), customer());
    const bare = await cancelWith(salon.ws.api, plain.body.uuid, {});
    expect(bare.body).toMatchObject({ cancel_reason: "canceled", canceled_by: null });
  });
});

describe("GET /staffers through a publishable key", () => {
  let hidden: { uuid: string };
  let elsewhere: { uuid: string; name: string };
  beforeAll(async () => {
    elsewhere = await createLocation(salon.ws, { name: "Harbour" });
    hidden = await createStaffer(salon.ws, [salon.location.uuid], {
      first_name: "Hidden",
      email: "hidden@staff.example",
      is_active_in_widget: false,
    });
    await createStaffer(salon.ws, [salon.location.uuid, elsewhere.uuid], {
      first_name: "Pat",
      last_name: "Both",
      email: "pat@staff.example",
      permissions: ["access-pos"],
      schedule: WEEKDAYS_9_TO_18(salon.location.uuid),
    });
  });

  it("shows only widget-active staff, each with exactly uuid, names and locations", async () => {
    await fresh();
    const res = await pk("/staffers?per_page=100");
    expect(res.status).toBe(200);
    const all = await salon.ws.api("/staffers?per_page=100");
    const active = all.body.data.filter(
      (s: { is_active_in_widget: boolean }) => s.is_active_in_widget,
    );
    expect(res.body.meta.total).toBe(active.length);
    expect(res.body.data.map((s: { uuid: string }) => s.uuid)).toEqual(
      active.map((s: { uuid: string }) => s.uuid),
    );
    expect(res.body.data.map((s: { uuid: string }) => s.uuid)).not.toContain(hidden.uuid);
    for (const staffer of res.body.data) {
      expect(Object.keys(staffer).sort()).toEqual(["first_name", "last_name", "locations", "uuid"]);
      for (const location of staffer.locations)
        expect(Object.keys(location).sort()).toEqual(["name", "uuid"]);
    }
    const pat = res.body.data.find((s: { first_name: string }) => s.first_name === "Pat");
    expect(pat).toEqual({
      uuid: expect.any(String),
      first_name: "Pat",
      last_name: "Both",
      locations: [
        { uuid: salon.location.uuid, name: salon.location.name },
        { uuid: elsewhere.uuid, name: "Harbour" },
      ].sort((a, b) => (a.uuid < b.uuid ? -1 : 1)),
    });
    const text = JSON.stringify(res.body);
    for (const secret of ["staff.example", "access-pos", "permissions", "email", "schedule"])
      expect(text).not.toContain(secret);
  });

  it("a secret key still sees every staffer with e-mail and permissions", async () => {
    const res = await salon.ws.api("/staffers?per_page=100");
    expect(res.body.data.map((s: { uuid: string }) => s.uuid)).toContain(hidden.uuid);
    const pat = res.body.data.find((s: { first_name: string }) => s.first_name === "Pat");
    expect(pat).toMatchObject({
      email: "pat@staff.example",
      permissions: ["access-pos"],
      is_active_in_widget: true,
    });
  });

  it("the OpenAPI document describes both views", async () => {
    const doc = (await send(`${PUBLIC}/openapi.json`)).body;
    const schema = doc.paths["/staffers"].get.responses["200"].content["application/json"].schema;
    const refs = JSON.stringify(schema);
    expect(refs).toContain("#/components/schemas/StafferList");
    expect(refs).toContain("#/components/schemas/PublicStafferList");
    const open = doc.components.schemas.PublicStaffer;
    expect(Object.keys(open.properties).sort()).toEqual([
      "first_name",
      "last_name",
      "locations",
      "uuid",
    ]);
    expect(open.additionalProperties).toBe(false);
  });
});

describe("nothing staff-internal reaches a publishable key", () => {
  it("no staff e-mail, permission, internal note, blocked-spot comment or other customer in any answer", async () => {
    await fresh();
    const date = nextMonday();
    const secrets = {
      email: "leak-check@staff.example",
      permission: "access-leak-check",
      note: "INTERNAL-LEAK-CHECK",
      comment: "COMMENT-LEAK-CHECK",
      other: "OtherCustomerLeakCheck",
    };
    const staffer = await createStaffer(salon.ws, [salon.location.uuid], {
      first_name: "Leak",
      email: secrets.email,
      permissions: [secrets.permission],
      schedule: WEEKDAYS_9_TO_18(salon.location.uuid),
    });
    const blocked = await salon.ws.api(`/staffers/${staffer.uuid}/blocked-spots`, {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        starts_at: at("12:00", date),
        ends_at: at("13:00", date),
        comment: secrets.comment,
      },
    });
    expect(blocked.status).toBe(201);
    // Someone else's booking, canceled by staff with a note.
    const other = await bookWith(salon.ws.api, at("08:00", date), {
      ...customer("+49 151 31313131"),
      customer_first_name: secrets.other,
      staffer_uuid: staffer.uuid,
    });
    await cancelWith(salon.ws.api, other.body.uuid, {
      internal_notes: secrets.note,
      staffer_uuid: staffer.uuid,
    });

    const answers: unknown[] = [];
    const call = async (path: string, sent: Parameters<Client>[1] = {}) => {
      const res = await pk(path, sent);
      expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBeLessThan(500);
      answers.push(res.body);
      return res;
    };
    const loc = salon.location.uuid;
    const services = [{ service_uuid: salon.cut.uuid, staffer_uuid: staffer.uuid }];
    await call("/locations");
    await call("/services");
    await call(`/services/${salon.cut.uuid}`);
    await call("/staffers");
    await call("/resources");
    await call("/booking-form");
    await call(
      `/locations/${loc}/time-slots?service_uuid=${salon.cut.uuid}&staffer_uuid=${staffer.uuid}&range_start=${date}&range_end=${date}`,
    );
    await call(`/locations/${loc}/time-slots/cart`, {
      method: "POST",
      body: { services, range_start: date, range_end: date },
    });
    await call(`/locations/${loc}/time-slots/cart/next`, { method: "POST", body: { services } });
    const held = await call("/reservations", {
      method: "POST",
      body: { location_uuid: loc, items: [{ datetime_start: at("10:00", date), services }] },
    });
    await call(`/reservations/${held.body.uuid}`);
    // Taken by the blocked spot: the 409 and its alternatives.
    await call("/bookings", {
      method: "POST",
      body: {
        location_uuid: loc,
        service_uuid: salon.cut.uuid,
        staffer_uuid: staffer.uuid,
        reserved_on: at("12:00", date),
        ...customer(),
      },
    });
    const mine = await call("/bookings", {
      method: "POST",
      body: {
        location_uuid: loc,
        service_uuid: salon.cut.uuid,
        reserved_on: at("10:00", date),
        reservation_uuid: held.body.uuid,
        ...customer(),
      },
    });
    await call(`/bookings/${mine.body.uuid}`);
    await call(`/bookings/${other.body.uuid}`);
    await call(`/bookings/${mine.body.uuid}/reschedule`, {
      method: "PUT",
      body: { reserved_on: at("12:00", date) },
    });
    await call(`/bookings/${mine.body.uuid}/reschedule`, {
      method: "PUT",
      body: { reserved_on: at("14:00", date) },
    });
    await call(`/bookings/${mine.body.uuid}/status/cancel`, { method: "PUT", body: {} });
    await call(`/reservations/${held.body.uuid}`, { method: "DELETE" });

    const text = JSON.stringify(answers);
    for (const secret of Object.values(secrets)) expect(text).not.toContain(secret);
  });
});
