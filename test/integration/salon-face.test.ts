import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { manageToken } from "../../src/bookings/manage-link";
import { createLocation, createWorkspace } from "../helpers/factory";
import { admin, d1RoundTrips, PUBLIC, send } from "../helpers/http";
import { createPublishableKey } from "../helpers/keys";
import { createMessagingSalon } from "../helpers/messages";
import { at, customer, type Salon } from "../helpers/salon";
import {
  cancel,
  fullDay,
  joined,
  local,
  offered,
  offerMessages,
  offerTokenIn,
  runDesk,
  WAIT_DAY,
} from "../helpers/waitlist";
import { everyShard } from "../helpers/every-shard";

vi.setConfig({ testTimeout: 30_000 });

const ADDRESS = {
  line1: "Hauptstraße 1",
  line2: "Hof 2",
  city: "Berlin",
  postal_code: "10115",
  country: "DE",
};
const LINE = "Hauptstraße 1, Hof 2, 10115 Berlin, Germany";
const PHONE = "+493012345678";
/** Berlin's area code grouped as people write it. */
const PHONE_DISPLAY = "+49 30 12345678";
const LOGO = "https://cdn.example/logo.svg";

/** E-mail only, no reminders, and the one template a test reads its message through. */
async function emailWithTemplate(ws: string, kind: string, subject: string, body: string) {
  const settings = await admin(`/workspaces/${ws}/notification-settings`, {
    method: "PUT",
    body: {
      email: { enabled: true, from_name: "Salon", from_email: "hello@salon.example" },
      sms: { enabled: false },
      reminders: [],
      templates: { [kind]: { en: { subject, body } } },
    },
  });
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);
}

const patchWorkspace = (id: string, body: unknown) =>
  admin(`/workspaces/${id}`, { method: "PATCH", body });
const patchLocation = (ws: string, location: string, body: unknown) =>
  admin(`/workspaces/${ws}/locations/${location}`, { method: "PATCH", body });

/** The workspace's stored brand and name, straight from D1. */
const storedWorkspace = (id: string) =>
  everyShard
    .prepare(
      "select name, brand_name, brand_logo_url, brand_accent_color from workspaces where id = ?",
    )
    .bind(id)
    .first();

describe("PATCH /workspaces/{ws}: the brand", () => {
  it("sets, partly changes and clears the brand; GET shows it", async () => {
    const ws = await createWorkspace({ name: "Studio GmbH" });
    const fresh = await admin(`/workspaces/${ws.id}`);
    expect(fresh.body.brand).toBeNull();

    const set = await patchWorkspace(ws.id, {
      name: "Studio Holding",
      brand: { name: "  Studio Mia  ", logo_url: LOGO, accent_color: "#1A5FB4" },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({
      uuid: ws.id,
      name: "Studio Holding",
      brand: { name: "Studio Mia", logo_url: LOGO, accent_color: "#1a5fb4" },
    });
    expect((await admin(`/workspaces/${ws.id}`)).body.brand).toEqual(set.body.brand);

    // Within brand, what is not sent is kept; null removes one part.
    const renamed = await patchWorkspace(ws.id, { brand: { name: "Mia", logo_url: null } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.brand).toEqual({ name: "Mia", logo_url: null, accent_color: "#1a5fb4" });
    expect(renamed.body.name).toBe("Studio Holding");

    // Exactly 80 characters and the darkest grey that passes are taken.
    const edge = await patchWorkspace(ws.id, {
      brand: { name: "x".repeat(80), accent_color: "#767676" },
    });
    expect(edge.status, JSON.stringify(edge.body)).toBe(200);
    expect(edge.body.brand.accent_color).toBe("#767676");

    const cleared = await patchWorkspace(ws.id, { brand: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.brand).toBeNull();
    expect(await storedWorkspace(ws.id)).toEqual({
      name: "Studio Holding",
      brand_name: null,
      brand_logo_url: null,
      brand_accent_color: null,
    });
    // An empty body changes nothing.
    const same = await patchWorkspace(ws.id, {});
    expect(same.status).toBe(200);
    expect(same.body.name).toBe("Studio Holding");
  });

  it.each([
    ["an empty name", { name: "   " }, "brand.name"],
    ["an 81-character name", { name: "x".repeat(81) }, "brand.name"],
    ["no name", { accent_color: "#000000" }, "brand.name"],
    ["an http: logo", { name: "Mia", logo_url: "http://cdn.example/logo.svg" }, "brand.logo_url"],
    ["a logo that is no URL", { name: "Mia", logo_url: "logo.svg" }, "brand.logo_url"],
    [
      "a logo URL with a username and password",
      { name: "Mia", logo_url: "https://mia:secret@cdn.example/logo.svg" },
      "brand.logo_url",
    ],
    [
      "a logo URL with a username",
      { name: "Mia", logo_url: "https://mia@cdn.example/logo.svg" },
      "brand.logo_url",
    ],
    [
      "a 2049-character logo URL",
      { name: "Mia", logo_url: `https://cdn.example/${"a".repeat(2049 - 20)}` },
      "brand.logo_url",
    ],
    ["a three-digit colour", { name: "Mia", accent_color: "#abc" }, "brand.accent_color"],
    ["a named colour", { name: "Mia", accent_color: "navy" }, "brand.accent_color"],
    ["a colour too light on white", { name: "Mia", accent_color: "#777777" }, "brand.accent_color"],
  ])("refuses %s with 422 on its field, writing nothing", async (_, brand, field) => {
    const ws = await createWorkspace({ name: "Before" });
    const res = await patchWorkspace(ws.id, { name: "After", brand });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect(Object.keys(res.body.errors)).toEqual([field]);
    expect(await storedWorkspace(ws.id)).toEqual({
      name: "Before",
      brand_name: null,
      brand_logo_url: null,
      brand_accent_color: null,
    });
  });

  it("stores the logo URL in its normalised form and answers it so", async () => {
    const ws = await createWorkspace();
    const res = await patchWorkspace(ws.id, {
      brand: { name: "Mia", logo_url: "  HTTPS://CDN.Example:443/brand/../logo ä.svg " },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const href = "https://cdn.example/logo%20%C3%A4.svg";
    expect(res.body.brand.logo_url).toBe(href);
    expect((await storedWorkspace(ws.id))?.brand_logo_url).toBe(href);
  });

  it("says why a logo URL with credentials is refused", async () => {
    const ws = await createWorkspace();
    const res = await patchWorkspace(ws.id, {
      brand: { name: "Mia", logo_url: "https://mia:secret@cdn.example/logo.svg" },
    });
    expect(res.body.errors["brand.logo_url"][0]).toMatch(/username or password/);
  });

  it("says why a light colour is refused", async () => {
    const ws = await createWorkspace();
    const res = await patchWorkspace(ws.id, { brand: { name: "Mia", accent_color: "#777777" } });
    expect(res.body.errors["brand.accent_color"][0]).toMatch(/4\.48:1.*4\.5:1/);
  });

  it("refuses an empty workspace name; 404 for an unknown workspace; 401 without the token", async () => {
    const ws = await createWorkspace();
    const empty = await patchWorkspace(ws.id, { name: "" });
    expect(empty.status).toBe(422);
    expect(Object.keys(empty.body.errors)).toEqual(["name"]);
    const unknown = await patchWorkspace(crypto.randomUUID(), { name: "X" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("not_found");
    const bare = await send(`/api/admin/v1/workspaces/${ws.id}`, {
      method: "PATCH",
      body: { name: "X" },
    });
    expect(bare.status).toBe(401);
  });
});

describe("GET /workspace (public)", () => {
  it("answers name, locale, currency and brand to secret and publishable keys, in one round trip", async () => {
    const ws = await createWorkspace({ name: "Studio GmbH", currency: "eur" });
    const pk = await createPublishableKey(ws);
    const before = await ws.api("/workspace");
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    expect(before.body).toEqual({
      name: "Studio GmbH",
      locale: "en",
      currency: "EUR",
      brand: null,
    });
    await patchWorkspace(ws.id, {
      brand: { name: "Mia", logo_url: LOGO, accent_color: "#000000" },
    });
    const brand = { name: "Mia", logo_url: LOGO, accent_color: "#000000" };
    const secret = await ws.api("/workspace");
    expect(secret.body).toEqual({ ...before.body, brand });
    expect(d1RoundTrips(secret.headers)).toBe(1);
    const widget = await pk.api("/workspace");
    expect(widget.status, JSON.stringify(widget.body)).toBe(200);
    expect(widget.body.brand).toEqual(brand);
    expect((await send(`${PUBLIC}/workspace`)).status).toBe(401);
  });
});

describe("a location's address and phone", () => {
  it("are taken on create and PATCH, shown by the admin answers and GET /locations, and cleared by null", async () => {
    const ws = await createWorkspace();
    const created = await admin(`/workspaces/${ws.id}/locations`, {
      method: "POST",
      body: {
        name: "Mitte",
        timezone: "Europe/Berlin",
        address: { ...ADDRESS, country: "de", line2: "  " },
        phone: PHONE,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      name: "Mitte",
      address: { ...ADDRESS, line2: null },
      phone: PHONE,
    });
    const plain = await createLocation(ws, { name: "Plain" });
    expect(plain).toMatchObject({ address: null, phone: null });

    // Spaces around each line are trimmed.
    const spaced = await patchLocation(ws.id, created.body.uuid, {
      address: {
        line1: "  Hauptstraße 1 ",
        line2: " Hof 2 ",
        city: " Berlin ",
        postal_code: " 10115 ",
        country: "DE",
      },
    });
    expect(spaced.status, JSON.stringify(spaced.body)).toBe(200);
    expect(spaced.body.address).toEqual(ADDRESS);

    const moved = await patchLocation(ws.id, created.body.uuid, { address: ADDRESS });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ address: ADDRESS, phone: PHONE });

    const listed = await ws.api("/locations");
    expect(listed.status).toBe(200);
    const byName = Object.fromEntries(listed.body.data.map((l: { name: string }) => [l.name, l]));
    expect(byName.Mitte).toMatchObject({
      address: ADDRESS,
      phone: PHONE,
      phone_display: PHONE_DISPLAY,
    });
    expect(byName.Plain).toMatchObject({ address: null, phone: null, phone_display: null });

    const cleared = await patchLocation(ws.id, created.body.uuid, { address: null, phone: null });
    expect(cleared.body).toMatchObject({ address: null, phone: null });
    const row = await everyShard
      .prepare(
        "select address_line1, address_line2, address_city, address_postal_code, address_country, phone from locations where id = ?",
      )
      .bind(created.body.uuid)
      .first();
    expect(Object.values(row ?? {}).every((v) => v === null)).toBe(true);
  });

  it.each([
    ["an unknown country", { address: { ...ADDRESS, country: "XX" } }, "address.country"],
    ["a 121-character line1", { address: { ...ADDRESS, line1: "x".repeat(121) } }, "address.line1"],
    ["a 121-character line2", { address: { ...ADDRESS, line2: "x".repeat(121) } }, "address.line2"],
    ["no city", { address: { ...ADDRESS, city: "" } }, "address.city"],
    // Each line goes into an SMS's one-line location_address: no breaks or control characters.
    [
      "a line break in line1",
      { address: { ...ADDRESS, line1: "Hauptstraße 1\nCall +49 30 999" } },
      "address.line1",
    ],
    [
      "a trailing line break in line1",
      { address: { ...ADDRESS, line1: "Hauptstraße 1\r\n" } },
      "address.line1",
    ],
    ["a tab in line2", { address: { ...ADDRESS, line2: "Hof\t2" } }, "address.line2"],
    ["a NUL in the city", { address: { ...ADDRESS, city: "Berlin\u0000" } }, "address.city"],
    [
      "a C1 control (NEL) in the postal code",
      { address: { ...ADDRESS, postal_code: "10\u0085115" } },
      "address.postal_code",
    ],
    [
      "a 21-character postal code",
      { address: { ...ADDRESS, postal_code: "1".repeat(21) } },
      "address.postal_code",
    ],
    ["a national phone", { phone: "030 12345678" }, "phone"],
    ["a phone with spaces", { phone: "+49 30 12345678" }, "phone"],
    ["a number that does not exist", { phone: "+49000000000" }, "phone"],
  ])("refuses %s with 422 on its field, writing nothing", async (_, body, field) => {
    const ws = await createWorkspace();
    const location = await createLocation(ws, { name: "Before" });
    const res = await patchLocation(ws.id, location.uuid, { name: "After", ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual([field]);
    const listed = await ws.api("/locations");
    expect(listed.body.data[0]).toMatchObject({ name: "Before", address: null, phone: null });
    const create = await admin(`/workspaces/${ws.id}/locations`, {
      method: "POST",
      body: { name: "New", timezone: "Europe/Berlin", ...body },
    });
    expect(create.status).toBe(422);
    expect(Object.keys(create.body.errors)).toEqual([field]);
  });

  it("another workspace's location is not found", async () => {
    const [a, b] = await Promise.all([createWorkspace(), createWorkspace()]);
    const theirs = await createLocation(b);
    const res = await patchLocation(a.id, theirs.uuid, { phone: PHONE });
    expect(res.status).toBe(404);
    expect((await b.api("/locations")).body.data[0].phone).toBeNull();
  });
});

describe("the salon on the customer's pages", () => {
  let salon: Salon;
  beforeAll(async () => {
    ({ salon } = await createMessagingSalon(1));
  });

  const salonOf = (brand: boolean) => ({
    name: brand ? "Studio Mia" : "Main street",
    location_name: "Main street",
    address: ADDRESS,
    address_line: LINE,
    phone: PHONE,
    phone_display: PHONE_DISPLAY,
    logo_url: brand ? LOGO : null,
    accent_color: brand ? "#1a5fb4" : null,
  });

  it("the manage view carries it (the location's name without a brand) in its one round trip, and messages write {{location_address}}", async () => {
    await emailWithTemplate(
      salon.ws.id,
      "booking-confirmation",
      "Booked",
      "See you at {{location_address}}.",
    );
    await patchLocation(salon.ws.id, salon.location.uuid, { address: ADDRESS, phone: PHONE });
    const booked = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: at("09:00", "2030-04-01"),
        ...customer(),
      },
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const message = await everyShard
      .prepare("select body from messages where booking_id = ? and kind = 'booking-confirmation'")
      .bind(booked.body.uuid)
      .first<{ body: string }>();
    expect(message?.body).toBe(`See you at ${LINE}.`);

    const token = await manageToken(env, {
      id: booked.body.uuid,
      workspaceId: salon.ws.id,
      customerId: booked.body.customer_uuid,
      endAt: Date.parse(booked.body.end_time),
    });
    const view = () =>
      send(`${PUBLIC}/manage/${token}`, { headers: { "cf-connecting-ip": "198.51.100.77" } });
    const plain = await view();
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    expect(plain.body.salon).toEqual(salonOf(false));
    expect(plain.body.location).toMatchObject({ address: ADDRESS, phone: PHONE });
    expect(d1RoundTrips(plain.headers)).toBe(1);

    await patchWorkspace(salon.ws.id, {
      brand: { name: "Studio Mia", logo_url: LOGO, accent_color: "#1a5fb4" },
    });
    const branded = await view();
    expect(branded.body.salon).toEqual(salonOf(true));
    expect(d1RoundTrips(branded.headers)).toBe(1);
  });

  it("the offer view carries it, and the offer's message writes {{location_address}}", async () => {
    await patchWorkspace(salon.ws.id, {
      brand: { name: "Studio Mia", logo_url: LOGO, accent_color: "#1a5fb4" },
    });
    await patchLocation(salon.ws.id, salon.location.uuid, { address: ADDRESS, phone: PHONE });
    await emailWithTemplate(
      salon.ws.id,
      "waitlist-offer",
      "Free time",
      "{{offer_url}} at {{location_address}}",
    );
    const pk = (await createPublishableKey(salon.ws)).api;
    const booking = await fullDay(salon, WAIT_DAY);
    const id = await joined(salon, pk);
    await runDesk(salon);
    await cancel(salon, booking);
    await offered(salon, id);
    const [message] = await offerMessages(id);
    expect(message?.body).toMatch(new RegExp(` at ${LINE}$`));
    const token = offerTokenIn(message?.body ?? "");
    const page = await send(`${PUBLIC}/waitlist-offers/${token}`, {
      headers: { "cf-connecting-ip": "198.51.100.78" },
    });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.start).toBe(local(WAIT_DAY, "09:00"));
    expect(page.body.salon).toEqual(salonOf(true));
  });
});
