import { beforeAll, describe, expect, it } from "vitest";
import { admin, d1RoundTrips, send, ADMIN } from "../../helpers/http";
import {
  createLocation,
  createStaffer,
  createWorkspace,
  WEEKDAYS_9_TO_18,
} from "../../helpers/factory";
import { createSalon, customer, type Salon } from "../../helpers/salon";
import { createPublishableKey, type PublishableKey } from "../../helpers/keys";
import { expectProtoJson, FEEDS } from "../../helpers/proto-json";

/**
 * The three feeds read back as Google reads them: proto3 JSON of test/fixtures/rwg/feeds.proto
 * (proto names, int64 as strings), the fields Google requires, and availability that is the
 * public time slots of the next 30 days.
 */

const DAY_S = 86_400;
const WINDOW_S = 30 * DAY_S;

let salon: Salon;
let second: { uuid: string };
let third: { uuid: string };
let pk: PublishableKey;
let services: Record<"trim" | "prepaid" | "card" | "hidden" | "yoga", { uuid: string }>;

const feed = (name: string, query = "", ws = salon.ws.id) =>
  admin(`/workspaces/${ws}/rwg/feeds/${name}.json${query}`);

async function createService(body: Record<string, unknown>) {
  const res = await salon.ws.api("/services", { method: "POST", body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uuid: string };
}

beforeAll(async () => {
  salon = await createSalon(3);
  pk = await createPublishableKey(salon.ws);
  // The first location: an address, a phone, coordinates, a notice and a cancellation offset.
  const patched = await admin(`/workspaces/${salon.ws.id}/locations/${salon.location.uuid}`, {
    method: "PATCH",
    body: {
      address: { line1: "Oranienstraße 12", city: "Berlin", postal_code: "10999", country: "DE" },
      phone: "+4930901820",
      latitude: 52.5016,
      longitude: 13.4192,
      min_notice: 120,
      cancellation_offset: 1440,
    },
  });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  // A second location with one staffer of its own, and a third with nobody.
  second = await createLocation(salon.ws, { name: "Harbour", timezone: "Europe/Berlin" });
  await createStaffer(salon.ws, [second.uuid], {
    first_name: "Harbour staff",
    schedule: WEEKDAYS_9_TO_18(second.uuid),
  });
  third = await createLocation(salon.ws, { name: "Empty", timezone: "Europe/Berlin" });
  services = {
    // Everywhere, bookable through Google; a description and a hidden price.
    trim: await createService({
      name: "Beard trim",
      description: "Shape and line-up.",
      duration: 30,
      price: 1500,
      is_price_hidden: true,
    }),
    // Takes money online: never offered to Google.
    prepaid: await createService({
      name: "Prepaid",
      duration: 30,
      price: 4000,
      payment_policy: { mode: "prepay" },
    }),
    // A card on file is asked online too.
    card: await createService({
      name: "Card",
      duration: 30,
      price: 4000,
      payment_policy: { mode: "card_on_file", no_show_fee: { percent: 50 } },
    }),
    // Not shown in the widget.
    hidden: await createService({
      name: "Desk only",
      duration: 30,
      price: 1000,
      live_in_widget: false,
    }),
    // A group class of 4 seats at the first location.
    yoga: await createService({
      name: "Group colour",
      duration: 60,
      price: 2000,
      capacity: 4,
      location_uuids: [salon.location.uuid],
    }),
  };
});

describe("GET /workspaces/{ws}/rwg/feeds/merchants.json", () => {
  it("lists every location as a merchant in Google's MerchantFeed", async () => {
    const res = await feed("merchants");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectProtoJson(`${FEEDS}.MerchantFeed`, res.body, { int64: "string", enums: "name" });
    const { metadata, merchant } = res.body;
    expect(metadata).toEqual({
      processing_instruction: "PROCESS_AS_COMPLETE",
      shard_number: 0,
      total_shards: 1,
      nonce: expect.stringMatching(/^\d+$/),
      generation_timestamp: expect.stringMatching(/^\d+$/),
    });
    expect(Math.abs(Number(metadata.generation_timestamp) - Date.now() / 1000)).toBeLessThan(60);
    expect(merchant.map((m: { merchant_id: string }) => m.merchant_id)).toEqual([
      salon.location.uuid,
      second.uuid,
      third.uuid,
    ]);
    expect(merchant[0]).toEqual({
      merchant_id: salon.location.uuid,
      name: salon.location.name,
      telephone: "+4930901820",
      category: "beauty_salon",
      geo: {
        latitude: 52.5016,
        longitude: 13.4192,
        address: {
          street_address: "Oranienstraße 12",
          locality: "Berlin",
          postal_code: "10999",
          country: "DE",
        },
      },
    });
    // Nothing set: no telephone, an empty geo (Google needs an address or coordinates to match).
    expect(merchant[1]).toEqual({
      merchant_id: second.uuid,
      name: "Harbour",
      category: "beauty_salon",
      geo: {},
    });
    for (const m of merchant) {
      expect(typeof m.merchant_id).toBe("string");
      expect(typeof m.name).toBe("string");
      expect(typeof m.category).toBe("string");
    }
  });

  it("names the merchants by the brand when the workspace has one", async () => {
    const branded = await admin(`/workspaces/${salon.ws.id}`, {
      method: "PATCH",
      body: { brand: { name: "Studio Kante" } },
    });
    expect(branded.status, JSON.stringify(branded.body)).toBe(200);
    const res = await feed("merchants");
    expect(res.body.merchant.map((m: { name: string }) => m.name)).toEqual([
      "Studio Kante",
      "Studio Kante",
      "Studio Kante",
    ]);
    await admin(`/workspaces/${salon.ws.id}`, { method: "PATCH", body: { brand: null } });
  });

  it("takes a nonce to give every feed of one generation", async () => {
    const res = await feed("merchants", "?nonce=12345678901");
    expect(res.body.metadata.nonce).toBe("12345678901");
    for (const bad of ["0", "abc", "-1", "12345678901234567890"]) {
      const refused = await feed("merchants", `?nonce=${bad}`);
      expect(refused.status, bad).toBe(422);
      expect(Object.keys(refused.body.errors)).toEqual(["nonce"]);
    }
  });
});

describe("GET /workspaces/{ws}/rwg/feeds/services.json", () => {
  it("lists each service Google may book at each location offering it", async () => {
    const res = await feed("services");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectProtoJson(`${FEEDS}.ServiceFeed`, res.body, { int64: "string", enums: "name" });
    expect(res.body.metadata).toMatchObject({ shard_number: 0, total_shards: 1 });
    const pairs = res.body.service.map(
      (s: { merchant_id: string; service_id: string }) => `${s.merchant_id}/${s.service_id}`,
    );
    // The trim, created without location_uuids after every location, is offered at each; the
    // cut and the colour were made when there was one location, the group colour names it.
    // Paid, card-on-file and widget-hidden services are never offered to Google.
    const first = [salon.cut.uuid, salon.colour.uuid, services.yoga.uuid, services.trim.uuid];
    const expected = [
      ...first.map((s) => `${salon.location.uuid}/${s}`),
      `${second.uuid}/${services.trim.uuid}`,
      `${third.uuid}/${services.trim.uuid}`,
    ];
    expect([...pairs].sort()).toEqual([...expected].sort());
    for (const excluded of [services.prepaid, services.card, services.hidden]) {
      expect(pairs.some((p: string) => p.endsWith(excluded.uuid))).toBe(false);
    }

    const at = (l: string, s: string) =>
      res.body.service.find(
        (x: { merchant_id: string; service_id: string }) =>
          x.merchant_id === l && x.service_id === s,
      );
    expect(at(salon.location.uuid, salon.cut.uuid)).toEqual({
      merchant_id: salon.location.uuid,
      service_id: salon.cut.uuid,
      localized_service_name: {
        value: "Haircut",
        localized_value: [{ locale: expect.any(String), value: "Haircut" }],
      },
      price: { price_micros: "35000000", currency_code: "EUR" },
      rules: { min_advance_booking: "7200", min_advance_online_canceling: "86400" },
    });
    // The discounted price is what a customer pays.
    expect(at(salon.location.uuid, salon.colour.uuid)).toMatchObject({
      price: { price_micros: "79000000", currency_code: "EUR" },
    });
    // Another location's own rules.
    expect(at(second.uuid, services.trim.uuid)).toMatchObject({
      rules: { min_advance_booking: "0", min_advance_online_canceling: "0" },
    });
    const trim = at(salon.location.uuid, services.trim.uuid);
    expect(trim.price).toBeUndefined();
    expect(trim.localized_description).toEqual({
      value: "Shape and line-up.",
      localized_value: [{ locale: expect.any(String), value: "Shape and line-up." }],
    });
  });

  it("writes prices in micros by the currency's minor digits (JPY has none)", async () => {
    const yen = await createWorkspace({ currency: "JPY", country: "JP", timezone: "Asia/Tokyo" });
    await createLocation(yen, { timezone: "Asia/Tokyo" });
    const made = await yen.api("/services", {
      method: "POST",
      body: { name: "Cut", duration: 30, price: 4500 },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const res = await feed("services", "", yen.id);
    expect(res.body.service[0].price).toEqual({ price_micros: "4500000000", currency_code: "JPY" });
  });
});

type Entry = {
  merchant_id: string;
  service_id: string;
  start_sec: string;
  duration_sec: string;
  spots_total: string;
  spots_open: string;
};

/** The public time slots (publishable key) of a service over [from, from + 30 days), as Unix seconds → quantity. */
async function publicSlots(location: string, service: string, fromSec: number) {
  const from = new Date(fromSec * 1000).toISOString();
  const to = new Date((fromSec + WINDOW_S) * 1000).toISOString();
  const res = await pk.api(
    `/locations/${location}/time-slots?service_uuid=${service}&range_start=${from}&range_end=${to}&timezone=UTC`,
    { headers: { origin: "https://salon.example" } },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const out = new Map<number, number>();
  for (const d of res.body.dates) {
    for (const s of d.slots) {
      const sec = Date.parse(`${d.date}T00:00:00Z`) / 1000 + s.start_formatted;
      if (sec < fromSec + WINDOW_S) out.set(sec, s.quantity);
    }
  }
  return out;
}

describe("GET /workspaces/{ws}/rwg/feeds/availability.json", () => {
  it("answers one shard per location, each once, with one nonce and the right counts", async () => {
    const shards = [];
    for (const n of [0, 1, 2]) {
      const res = await feed("availability", `?shard=${n}&nonce=777`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expectProtoJson(`${FEEDS}.AvailabilityFeed`, res.body, { int64: "string", enums: "name" });
      shards.push(res.body);
    }
    expect(shards.map((s) => s.metadata.shard_number)).toEqual([0, 1, 2]);
    expect(new Set(shards.map((s) => s.metadata.total_shards))).toEqual(new Set([3]));
    expect(new Set(shards.map((s) => s.metadata.nonce))).toEqual(new Set(["777"]));
    const merchants = shards.map(
      (s) => new Set(s.service_availability[0].availability.map((a: Entry) => a.merchant_id)),
    );
    expect(merchants).toEqual([
      new Set([salon.location.uuid]),
      new Set([second.uuid]),
      new Set(), // nobody works at the third
    ]);
    // Without a nonce, the shards fetched in one hour agree (the UTC hour).
    const [a, b] = [await feed("availability", "?shard=0"), await feed("availability", "?shard=1")];
    if (a.body.metadata.nonce !== b.body.metadata.nonce) {
      // An hour boundary fell between them: the later one is the next hour.
      expect(Number(b.body.metadata.nonce)).toBe(Number(a.body.metadata.nonce) + 1);
    }
    const hour = Math.floor(Date.now() / 3_600_000);
    expect([String(hour), String(hour - 1)]).toContain(a.body.metadata.nonce);
  });

  it("refuses a shard past the last (422 on shard) and a shard that is not a number", async () => {
    for (const bad of ["3", "1000", "-1", "x", "1.5"]) {
      const res = await feed("availability", `?shard=${bad}`);
      expect(res.status, bad).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(["shard"]);
    }
  });

  it("carries the public time slots of the next 30 days, spots_open ≤ spots_total", async () => {
    const res = await feed("availability", "?shard=0");
    // The workspace and its locations, then the location's availability: two D1 batches.
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(2);
    const g = Number(res.body.metadata.generation_timestamp);
    const entries: Entry[] = res.body.service_availability[0].availability;
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) {
      for (const k of ["start_sec", "duration_sec", "spots_total", "spots_open"] as const) {
        expect(e[k], k).toMatch(/^\d+$/);
      }
      expect(Number(e.spots_open)).toBeGreaterThan(0);
      expect(Number(e.spots_open)).toBeLessThanOrEqual(Number(e.spots_total));
      // Within [now, now + 30 days), and honouring the location's 2-hour notice.
      expect(Number(e.start_sec)).toBeGreaterThanOrEqual(g + 7200 - 1);
      expect(Number(e.start_sec)).toBeLessThan(g + WINDOW_S + 1);
    }
    const starts = entries.map((e) => Number(e.start_sec));
    // The whole window is covered: slots in its first and its last three days (weekdays 09–18).
    expect(Math.min(...starts)).toBeLessThan(g + 3 * DAY_S + 7200);
    expect(Math.max(...starts)).toBeGreaterThan(g + WINDOW_S - 3 * DAY_S);

    const offered = new Set(entries.map((e) => e.service_id));
    expect(offered).toEqual(
      new Set([salon.cut.uuid, salon.colour.uuid, services.trim.uuid, services.yoga.uuid]),
    );
    const totals: Record<string, string> = {
      [salon.cut.uuid]: "3",
      [salon.colour.uuid]: "3",
      [services.trim.uuid]: "3",
      [services.yoga.uuid]: "12", // 3 staffers × 4 seats
    };
    const durations: Record<string, string> = {
      [salon.cut.uuid]: "2700",
      [salon.colour.uuid]: "5400",
      [services.trim.uuid]: "1800",
      [services.yoga.uuid]: "3600",
    };
    for (const service of offered) {
      const mine = entries.filter((e) => e.service_id === service);
      for (const e of mine) {
        expect(e.spots_total).toBe(totals[service]);
        expect(e.duration_sec).toBe(durations[service]);
      }
      // The same starts and counts as the public time slots (a minute's margin at both ends:
      // the two reads are a moment apart).
      const inside = (sec: number) => sec >= g + 60 && sec < g + WINDOW_S - 60;
      const feedSlots = new Map(
        mine
          .filter((e) => inside(Number(e.start_sec)))
          .map((e) => [Number(e.start_sec), Number(e.spots_open)]),
      );
      const pub = await publicSlots(salon.location.uuid, service, g);
      const publicInside = new Map([...pub].filter(([sec]) => inside(sec)));
      expect(feedSlots.size).toBeGreaterThan(0);
      expect(feedSlots).toEqual(publicInside);
    }
  });

  it("lowers spots_open, not spots_total, once a slot is booked", async () => {
    const entriesOf = async (shard: number): Promise<Entry[]> =>
      (await feed("availability", `?shard=${shard}`)).body.service_availability[0].availability;
    const book = async (location: string, service: string, startSec: string) => {
      const res = await salon.ws.api("/bookings", {
        method: "POST",
        body: {
          location_uuid: location,
          service_uuid: service,
          reserved_on: new Date(Number(startSec) * 1000).toISOString(),
          ...customer(),
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    };
    const find = (entries: Entry[], service: string, startSec: string) =>
      entries.find((e) => e.service_id === service && e.start_sec === startSec);

    // Three staffers cut at the first location: one booked, two left.
    const cut = (await entriesOf(0)).find((e) => e.service_id === salon.cut.uuid);
    if (!cut) throw new Error("no cut slot");
    expect(cut).toMatchObject({ spots_total: "3", spots_open: "3" });
    await book(salon.location.uuid, salon.cut.uuid, cut.start_sec);
    expect(find(await entriesOf(0), salon.cut.uuid, cut.start_sec)).toMatchObject({
      spots_total: "3",
      spots_open: "2",
    });

    // The Harbour's one staffer performs the trim there: booked, the start is gone.
    const harbour = await entriesOf(1);
    expect(new Set(harbour.map((e) => e.service_id))).toEqual(new Set([services.trim.uuid]));
    const trim = harbour[0];
    if (!trim) throw new Error("no trim slot at the Harbour");
    expect(trim).toMatchObject({ spots_total: "1", spots_open: "1" });
    await book(second.uuid, services.trim.uuid, trim.start_sec);
    expect(find(await entriesOf(1), services.trim.uuid, trim.start_sec)).toBeUndefined();
  });
});

describe("the feeds' access", () => {
  it("are 404 for an unknown workspace and 401 without the admin token", async () => {
    const unknown = crypto.randomUUID();
    for (const name of ["merchants", "services", "availability"]) {
      const missing = await feed(name, "", unknown);
      expect(missing.status, name).toBe(404);
      const anonymous = await send(`${ADMIN}/workspaces/${salon.ws.id}/rwg/feeds/${name}.json`);
      expect(anonymous.status, name).toBe(401);
      const wrong = await send(`${ADMIN}/workspaces/${salon.ws.id}/rwg/feeds/${name}.json`, {
        headers: { authorization: `Bearer ${salon.ws.apiKey}` },
      });
      expect(wrong.status, name).toBe(401);
    }
  });

  it("are answered whether or not the booking server is enabled", async () => {
    // This workspace never enabled it (PUT /rwg): every feed answered above.
    const res = await feed("services");
    expect(res.status).toBe(200);
  });
});
