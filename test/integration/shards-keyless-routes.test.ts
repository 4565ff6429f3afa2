import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { manageToken } from "../../src/bookings/manage-link";
import { base64url, signManageToken } from "../../src/bookings/manage-token";
import { forgetPlacement } from "../../src/db/shards";
import { BASE, type Client, d1RoundTrips, PUBLIC, send } from "../helpers/http";
import { createMessagingSalon } from "../helpers/messages";
import { customer, type Salon } from "../helpers/salon";
import {
  cancel,
  fullDay,
  joined,
  mondayIn,
  offered,
  offerMessages,
  offerTokenIn,
  runDesk,
  WAIT_DAY,
} from "../helpers/waitlist";
import {
  bookedFrom,
  days,
  paidService,
  payAndDeliver,
  postDelivery,
  present,
  reserve,
  signedEvent,
  startCheckout,
  widget,
} from "../helpers/checkout-flow";
import { stripeDeliveries } from "../helpers/stripe";
import { postEvent } from "../helpers/payments";

/**
 * The routes that take no API key (a manage link, a staffer's calendar feed, a
 * booking's calendar file, a waitlist offer's link, the payment provider's
 * events) find their workspace's shard themselves, from what their token or
 * event names. Each works for workspaces on two different shards, with the
 * rows read where the directory says they live; a token changed to name
 * another workspace, or one the directory does not know, is refused as an
 * invalid token is.
 */

vi.setConfig({ testTimeout: 60_000 });

interface Place {
  salon: Salon;
  pk: Client;
  deposit: string;
}

const places: Place[] = [];
const UNKNOWN_WORKSPACE = "0f0e0d0c-0b0a-4908-8706-050403020100";

beforeAll(async () => {
  // New workspaces go to the emptiest shard: a second salon lands on another one.
  for (let tries = 0; places.length < 2 && tries < 8; tries++) {
    const { salon, pk } = await createMessagingSalon(1);
    if (places.some((p) => p.salon.ws.shard === salon.ws.shard)) continue;
    const deposit = await paidService(salon, { mode: "deposit", deposit: { percent: 25 } });
    places.push({ salon, pk, deposit });
  }
  expect(places.map((p) => p.salon.ws.shard)).toHaveLength(2);
  expect(places.map((p) => p.salon.ws.shard).every((s) => /^SHARD_\d+$/.test(s))).toBe(true);
});

const SHARDS = Object.keys(env)
  .filter((name) => /^SHARD_\d+$/.test(name))
  .sort();
const d1 = (name: string) =>
  present((env as unknown as Record<string, D1Database | undefined>)[name], `the ${name} binding`);

/** The shards holding a row of `table` with this id: routing put it on the workspace's alone. */
async function shardsHolding(table: string, id: string): Promise<string[]> {
  const found = await Promise.all(
    SHARDS.map(async (name) =>
      (await d1(name).prepare(`SELECT 1 AS hit FROM ${table} WHERE id = ?`).bind(id).first())
        ? name
        : null,
    ),
  );
  return found.filter((name): name is string => name !== null);
}

/** A caller of its own client address per call, so no per-address limit is shared. */
let addresses = 0;
const address = () => {
  addresses += 1;
  return { "cf-connecting-ip": `203.0.113.${addresses % 250}` };
};

/** A GET answered as text (a calendar file), as a calendar app fetches it. */
async function fetchText(path: string) {
  const res = await exports.default.fetch(new Request(`${BASE}${path}`, { headers: address() }));
  return { status: res.status, text: await res.text() };
}

/** Weekdays from a Monday four weeks out (past the waitlist's day), one per booking. */
const FIRST_MONDAY = Date.parse(`${mondayIn(4)}T00:00:00Z`);
let booked = 0;
async function book(place: Place) {
  booked += 1;
  const n = booked - 1;
  const day = FIRST_MONDAY + (Math.floor(n / 5) * 7 + (n % 5)) * 86_400_000;
  // 10:00Z (11:00 in Berlin), inside the staffer's hours.
  const date = new Date(day).toISOString().slice(0, 10);
  const res = await place.salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: place.salon.location.uuid,
      service_uuid: place.salon.cut.uuid,
      staffer_uuid: place.salon.staffers[0]?.uuid,
      reserved_on: `${date}T10:00:00Z`,
      ...customer(`+49 151 3${String(1000000 + booked)}`),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as {
    uuid: string;
    customer_uuid: string;
    end_time: string;
    links: { type: string; link: string }[];
  };
}

const other = (place: Place) =>
  present(
    places.find((p) => p !== place),
    "the other salon",
  );

/** A workspace token (feed, offer) with its workspace part set to `workspaceId`. */
function renamed(token: string, workspaceId: string): string {
  const bytes = Uint8Array.from(atob(token.replace(/-/g, "+").replace(/_/g, "/")), (ch) =>
    ch.charCodeAt(0),
  );
  const hex = workspaceId.replace(/-/g, "");
  for (let i = 0; i < 16; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return base64url(bytes);
}

describe.each([0, 1])("a workspace on its own shard (salon %i)", (index) => {
  const place = () => present(places[index], "a salon");

  it("its manage link opens and cancels the booking, read and written on its shard", async () => {
    const { salon } = place();
    const booking = await book(place());
    expect(await shardsHolding("bookings", booking.uuid)).toEqual([salon.ws.shard]);
    const token = present(
      manageToken(env, {
        id: booking.uuid,
        workspaceId: salon.ws.id,
        customerId: booking.customer_uuid,
        endAt: Date.parse(booking.end_time),
      }),
      "a manage token (MANAGE_TOKEN_SECRET)",
    );
    const ip = address();
    const opened = await send(`${PUBLIC}/manage/${token}`, { headers: ip });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body.booking.uuid).toBe(booking.uuid);
    const canceled = await send(`${PUBLIC}/manage/${token}/cancel`, {
      method: "POST",
      headers: ip,
      body: {},
    });
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    const row = await d1(salon.ws.shard)
      .prepare("SELECT is_canceled FROM bookings WHERE id = ?")
      .bind(booking.uuid)
      .first<{ is_canceled: number }>();
    expect(row?.is_canceled).toBe(1);
  });

  it("a manage token changed to name another workspace, or signed for one the directory does not know, is 401 invalid_token", async () => {
    const { salon } = place();
    const booking = await book(place());
    const signed = {
      bookingId: booking.uuid,
      workspaceId: salon.ws.id,
      customerId: booking.customer_uuid,
    };
    const token = signManageToken(present(env.MANAGE_TOKEN_SECRET, "a manage secret"), signed);
    // Bytes 17..33 are the workspace: another salon's there breaks the signature.
    const bytes = Uint8Array.from(atob(token.replace(/-/g, "+").replace(/_/g, "/")), (ch) =>
      ch.charCodeAt(0),
    );
    const hex = other(place()).salon.ws.id.replace(/-/g, "");
    for (let i = 0; i < 16; i++) bytes[17 + i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
    const unknown = signManageToken(present(env.MANAGE_TOKEN_SECRET, "a manage secret"), {
      ...signed,
      workspaceId: UNKNOWN_WORKSPACE,
    });
    for (const refused of [base64url(bytes), unknown]) {
      const res = await send(`${PUBLIC}/manage/${refused}`, { headers: address() });
      expect(res.status, JSON.stringify(res.body)).toBe(401);
      expect(res.body.code).toBe("invalid_token");
    }
    const cancelUnknown = await send(`${PUBLIC}/manage/${unknown}/cancel`, {
      method: "POST",
      headers: address(),
      body: {},
    });
    expect(cancelUnknown.status).toBe(401);
    expect(cancelUnknown.body.code).toBe("invalid_token");
    // The booking is untouched.
    expect((await salon.ws.api(`/bookings/${booking.uuid}`)).body.is_canceled).toBe(false);
  });

  it("its staffer's calendar feed answers; the token renamed to another or an unknown workspace is 404", async () => {
    const { salon } = place();
    const booking = await book(place());
    const rotated = await salon.ws.api(`/staffers/${salon.staffers[0]?.uuid}/calendar-feed`, {
      method: "POST",
    });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(201);
    const path = new URL(rotated.body.url as string).pathname;
    const feed = await fetchText(path);
    expect(feed.status, feed.text).toBe(200);
    expect(feed.text).toContain(`UID:${booking.uuid}`);

    const token = present(/feeds\/feed_([^.]+)\.ics$/.exec(path)?.[1], "a feed token");
    for (const ws of [other(place()).salon.ws.id, UNKNOWN_WORKSPACE]) {
      const refused = await fetchText(`${PUBLIC}/feeds/feed_${renamed(token, ws)}.ics`);
      expect(refused.status).toBe(404);
      expect(JSON.parse(refused.text).code).toBe("not_found");
    }
  });

  it("a booking's calendar file answers; its link token naming another or an unknown workspace is 404", async () => {
    const booking = await book(place());
    const link = new URL(
      present(
        booking.links.find((l) => l.type === "ical"),
        "an ical link",
      ).link,
    );
    const file = await fetchText(`${link.pathname}${link.search}`);
    expect(file.status, file.text).toBe(200);
    expect(file.text).toContain(`UID:${booking.uuid}`);

    const token = present(link.searchParams.get("token"), "a token");
    for (const ws of [other(place()).salon.ws.id, UNKNOWN_WORKSPACE]) {
      const named = `${ws.replace(/-/g, "")}${token.slice(32)}`;
      const refused = await fetchText(`${link.pathname}?token=${named}`);
      expect(refused.status).toBe(404);
      expect(JSON.parse(refused.text).code).toBe("not_found");
    }
  });

  it("a waitlist offer's link opens and books on its shard; renamed to another or an unknown workspace it is 401 invalid_token", async () => {
    const { salon, pk } = place();
    const taken = await fullDay(salon, WAIT_DAY);
    const entry = await joined(salon, pk);
    await runDesk(salon);
    await cancel(salon, taken);
    await offered(salon, entry);
    const token = offerTokenIn((await offerMessages(entry))[0]?.body ?? "");

    for (const ws of [other(place()).salon.ws.id, UNKNOWN_WORKSPACE]) {
      const refused = await send(`${PUBLIC}/waitlist-offers/${renamed(token, ws)}`, {
        headers: address(),
      });
      expect(refused.status, JSON.stringify(refused.body)).toBe(401);
      expect(refused.body.code).toBe("invalid_token");
      const notBooked = await send(`${PUBLIC}/waitlist-offers/${renamed(token, ws)}/book`, {
        method: "POST",
        headers: address(),
      });
      expect(notBooked.status).toBe(401);
      expect(notBooked.body.code).toBe("invalid_token");
    }

    const page = await send(`${PUBLIC}/waitlist-offers/${token}`, { headers: address() });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.entry_uuid).toBe(entry);
    const booked = await send(`${PUBLIC}/waitlist-offers/${token}/book`, {
      method: "POST",
      headers: address(),
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(await shardsHolding("bookings", booked.body.uuid)).toEqual([salon.ws.shard]);
  });

  it("the provider's events reach its shard: the checkout books there, the replay is a duplicate (deduped there)", async () => {
    const { salon, deposit } = place();
    const api = await widget(salon);
    const day = days(index === 0 ? "2034-01-02" : "2035-01-01")();
    const held = await reserve(api, salon, day, [["10:00", deposit]]);
    const started = await startCheckout(api, held.uuid);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const { answers, deliveries } = await payAndDeliver(salon.ws.id, started.body.checkout_url);
    const completed = present(
      deliveries.find((d) => d.type === "checkout.session.completed"),
      "a completed event",
    );
    expect(answers.find((a) => a.type === "checkout.session.completed")?.body.handled).toBe(
      "handled",
    );
    const booking = present((await bookedFrom(api, held.uuid)).booking_uuid, "a booking");
    expect(await shardsHolding("bookings", booking)).toEqual([salon.ws.shard]);

    const eventId = (JSON.parse(completed.payload) as { id: string }).id;
    const marked = await d1(salon.ws.shard)
      .prepare("SELECT workspace_id FROM payment_provider_events WHERE id = ?")
      .bind(eventId)
      .first<{ workspace_id: string }>();
    expect(marked?.workspace_id).toBe(salon.ws.id);
    expect(await shardsHolding("payment_provider_events", eventId)).toEqual([salon.ws.shard]);
    expect((await postEvent(completed)).body.handled).toBe("duplicate");
    expect(await stripeDeliveries(salon.ws.id)).toEqual([]);
  });
});

describe("what routing a link costs", () => {
  it("one directory read when this isolate does not remember the workspace's shard, none when it does", async () => {
    const place = present(places[1], "a salon");
    const booking = await book(place);
    const token = present(
      manageToken(env, {
        id: booking.uuid,
        workspaceId: place.salon.ws.id,
        customerId: booking.customer_uuid,
        endAt: Date.parse(booking.end_time),
      }),
      "a manage token",
    );
    forgetPlacement(place.salon.ws.id);
    const cold = await send(`${PUBLIC}/manage/${token}`, { headers: address() });
    expect(cold.status).toBe(200);
    expect(d1RoundTrips(cold.headers)).toBe(2);
    const warm = await send(`${PUBLIC}/manage/${token}`, { headers: address() });
    expect(warm.status).toBe(200);
    expect(d1RoundTrips(warm.headers)).toBe(1);
  });
});

describe("provider events naming no workspace we know", () => {
  it("are 200 ignored, and nothing is kept anywhere", async () => {
    for (const metadata of [{ workspace_id: UNKNOWN_WORKSPACE }, {}, null]) {
      const event = await signedEvent("checkout.session.completed", {
        id: `cs_test_${crypto.randomUUID().replaceAll("-", "")}`,
        object: "checkout.session",
        status: "complete",
        metadata,
      });
      const answer = await postDelivery(event);
      expect(answer).toMatchObject({ status: 200, body: { handled: "ignored" } });
      const id = (JSON.parse(event.payload) as { id: string }).id;
      expect(await shardsHolding("payment_provider_events", id)).toEqual([]);
      const inDirectory = await env.DB.prepare("SELECT 1 FROM payment_provider_events WHERE id = ?")
        .bind(id)
        .first();
      expect(inDirectory).toBeNull();
    }
  });
});
