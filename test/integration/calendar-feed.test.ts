import { exports } from "cloudflare:workers";
import ICAL from "ical.js";
import { beforeAll, describe, expect, it } from "vitest";
import {
  createLocation,
  createStaffer,
  createWorkspace,
  WEEKDAYS_9_TO_18,
} from "../helpers/factory";
import { BASE, d1RoundTrips } from "../helpers/http";
import { type Component, eventsByUid, prop, strictIcs } from "../helpers/ics";
import { createPublishableKey } from "../helpers/keys";
import { createSalon, customer, type Salon } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

/**
 * A staffer's calendar feed, fetched as a calendar app does (no API key), read by two readers
 * that share nothing: Mozilla's ical.js, and test/helpers/ics.ts (RFC 5545 by the letter:
 * CRLF, 75-octet folding, TEXT escaping, nesting, required properties).
 */

let salon: Salon;
beforeAll(async () => {
  salon = await createSalon();
});

const DAY = 86_400_000;

/** The date of a weekday (Mon–Fri) `weeks` weeks from now: inside the feed's 180 days. */
function weekday(weeks: number, dow = 2): string {
  const date = new Date(Date.now() + weeks * 7 * DAY);
  // Monday = 1 … Sunday = 7 (getUTCDay: Sunday = 0).
  const current = date.getUTCDay() || 7;
  date.setUTCDate(date.getUTCDate() + ((dow - current + 7) % 7));
  return date.toISOString().slice(0, 10);
}

const put = (path: string, body: unknown) => salon.ws.api(path, { method: "PUT", body });

let phone = 0;
async function book(date: string, hhmm: string, staffer = 0, extra: Record<string, unknown> = {}) {
  phone += 1;
  const res = await salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      reserved_on: `${date}T${hhmm}:00Z`,
      staffer_uuid: salon.staffers[staffer]?.uuid,
      ...customer(`+49 151 2345${String(6000 + phone)}`),
      ...extra,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.uuid as string;
}

async function feedUrl(staffer = 0, ws = salon.ws): Promise<string> {
  const res = await ws.api(`/staffers/${salon.staffers[staffer]?.uuid}/calendar-feed`, {
    method: "POST",
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.url as string;
}

interface Feed {
  status: number;
  text: string;
  headers: Headers;
  /** ical.js's reading. */
  ical: ICAL.Component;
  /** The strict hand reading. */
  strict: Component;
}

async function fetchFeed(url: string, headers: Record<string, string> = {}) {
  return exports.default.fetch(new Request(url, { headers }));
}

async function feed(url: string): Promise<Feed> {
  const res = await fetchFeed(url);
  const text = await res.text();
  expect(res.status, text).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
  return {
    status: res.status,
    text,
    headers: res.headers,
    ical: new ICAL.Component(ICAL.parse(text)),
    strict: strictIcs(text),
  };
}

/** Both readers' view of one event: they must agree on everything asserted. */
function event(f: Feed, uid: string) {
  const ical = f.ical
    .getAllSubcomponents("vevent")
    .find((e) => e.getFirstPropertyValue("uid") === uid);
  const strict = eventsByUid(f.strict).get(uid);
  if (!ical || !strict) throw new Error(`No event ${uid} in:\n${f.text}`);
  const sequence = Number(ical.getFirstPropertyValue("sequence"));
  expect(Number(prop(strict, "SEQUENCE"))).toBe(sequence);
  const status = ical.getFirstPropertyValue("status");
  expect(prop(strict, "STATUS")).toBe(status);
  const summary = ical.getFirstPropertyValue("summary");
  expect(prop(strict, "SUMMARY")).toBe(summary);
  const start = (ical.getFirstPropertyValue("dtstart") as ICAL.Time).toJSDate().toISOString();
  const end = (ical.getFirstPropertyValue("dtend") as ICAL.Time).toJSDate().toISOString();
  return { ical, strict, sequence, status, summary, start, end };
}

/** `count` copies of a booking and its services (ids `<uuid>-<i>`), each `i` minutes later. */
async function copyBooking(uuid: string, count: number) {
  // Every shard answers the same columns: each name once.
  const columns = async (table: string) => [
    ...new Set(
      (
        await everyShard
          .prepare(`select name from pragma_table_info('${table}')`)
          .all<{ name: string }>()
      ).results.map((r) => r.name),
    ),
  ];
  const copy = async (table: string, key: string, shift: Record<string, string>) => {
    const names = await columns(table);
    const values = names.map((n) => shift[n] ?? n).join(", ");
    await everyShard
      .prepare(
        `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count})
       insert into ${table} (${names.join(", ")}) select ${values} from ${table}, n where ${key} = ?`,
      )
      .bind(uuid)
      .run();
  };
  await copy("bookings", "id", {
    id: "id || '-' || i",
    start_at: "start_at + i * 60000",
    end_at: "end_at + i * 60000",
  });
  await copy("booking_services", "booking_id", {
    id: "id || '-' || i",
    booking_id: "booking_id || '-' || i",
    reserved_on: "reserved_on + i * 60000",
    reserved_until: "reserved_until + i * 60000",
  });
}

describe("POST /staffers/{uuid}/calendar-feed", () => {
  it("answers a secret URL whose token has 256 random bits", async () => {
    const url = await feedUrl();
    expect(url).toMatch(new RegExp(`^${BASE}/api/public/v2/feeds/feed_[A-Za-z0-9_-]{64}\\.ics$`));
    // Only a hash is stored: the token is nowhere in D1.
    const token = /feeds\/(feed_[^.]+)\.ics/.exec(url)?.[1] ?? "";
    const rows = await everyShard.prepare("select token_hash from calendar_feeds").all<{
      token_hash: string;
    }>();
    expect(rows.results.length).toBeGreaterThan(0);
    for (const row of rows.results) expect(row.token_hash).not.toContain(token);
  });

  it("a publishable key is 403, another workspace's staffer and an unknown one are 404", async () => {
    const pk = await createPublishableKey(salon.ws);
    const staffer = salon.staffers[0]?.uuid;
    const refused = await pk.api(`/staffers/${staffer}/calendar-feed`, { method: "POST" });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("forbidden");

    const other = await createWorkspace();
    const foreign = await other.api(`/staffers/${staffer}/calendar-feed`, { method: "POST" });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("not_found");
    const unknown = await salon.ws.api(`/staffers/${crypto.randomUUID()}/calendar-feed`, {
      method: "POST",
    });
    expect(unknown.status).toBe(404);
    // Nothing was written for the refused calls.
    const row = await everyShard
      .prepare("select count(*) as n from calendar_feeds where workspace_id = ?")
      .bind(other.id)
      .first<{ n: number }>();
    expect(row?.n).toBe(0);
  });

  it("calling it again rotates: the old URL answers 404, the new one the feed", async () => {
    const first = await feedUrl(1);
    expect((await fetchFeed(first)).status).toBe(200);
    const second = await feedUrl(1);
    expect(second).not.toBe(first);
    const old = await fetchFeed(first);
    expect(old.status).toBe(404);
    expect(((await old.json()) as { code: string }).code).toBe("not_found");
    expect((await fetchFeed(second)).status).toBe(200);
  });
  it("two rotations at once: exactly one of the two URLs answers afterwards", async () => {
    const path = `/staffers/${salon.staffers[2]?.uuid}/calendar-feed`;
    const [a, b] = await Promise.all([
      salon.ws.api(path, { method: "POST" }),
      salon.ws.api(path, { method: "POST" }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    const statuses = [(await fetchFeed(a.body.url)).status, (await fetchFeed(b.body.url)).status];
    expect(statuses.sort()).toEqual([200, 404]);
    const rows = await everyShard
      .prepare("select count(*) as n from calendar_feeds where staffer_id = ?")
      .bind(salon.staffers[2]?.uuid)
      .first<{ n: number }>();
    expect(rows?.n).toBe(1);
  });
});

describe("GET /feeds/{token}.ics", () => {
  it("UID stays and SEQUENCE grows across a reschedule and a cancel; the cancelled one is STATUS:CANCELLED", async () => {
    const date = weekday(2);
    const uuid = await book(date, "09:00", 2);
    const url = await feedUrl(2);

    const first = event(await feed(url), uuid);
    expect(first.status).toBe("CONFIRMED");
    expect(first.start).toBe(`${date}T09:00:00.000Z`);
    expect(first.end).toBe(`${date}T09:45:00.000Z`);
    expect(first.summary).toBe("Haircut – Anna Berg");

    const moved = await put(`/bookings/${uuid}/reschedule`, { reserved_on: `${date}T12:00:00Z` });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const second = event(await feed(url), uuid);
    expect(second.sequence).toBeGreaterThan(first.sequence);
    expect(second.start).toBe(`${date}T12:00:00.000Z`);
    expect(second.status).toBe("CONFIRMED");

    const canceled = await put(`/bookings/${uuid}/status/cancel`, {});
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    const third = event(await feed(url), uuid);
    expect(third.sequence).toBeGreaterThan(second.sequence);
    expect(third.status).toBe("CANCELLED");
    expect(third.start).toBe(`${date}T12:00:00.000Z`);
    // DTSTAMP and LAST-MODIFIED are the booking's last change, as its own .ics has them.
    const row = await everyShard
      .prepare("select version, updated_at from bookings where id = ?")
      .bind(uuid)
      .first<{ version: number; updated_at: number }>();
    expect(third.sequence).toBe(row?.version);
    const changed = new Date(Math.floor((row?.updated_at ?? 0) / 1000) * 1000).toISOString();
    for (const name of ["dtstamp", "last-modified"])
      expect((third.ical.getFirstPropertyValue(name) as ICAL.Time).toJSDate().toISOString()).toBe(
        changed,
      );
  });

  it("shows the staffer's blocked spots, and only that staffer's bookings in the window", async () => {
    const date = weekday(3);
    const mine = await book(date, "09:00", 0);
    const theirs = await book(date, "09:00", 1);
    const spot = await salon.ws.api(`/staffers/${salon.staffers[0]?.uuid}/blocked-spots`, {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        starts_at: `${date}T13:00:00Z`,
        ends_at: `${date}T14:30:00Z`,
        comment: "Dentist",
      },
    });
    expect(spot.status, JSON.stringify(spot.body)).toBe(201);
    const f = await feed(await feedUrl(0));
    const blocked = event(f, spot.body.uuid);
    expect(blocked.summary).toBe("Blocked: Dentist");
    expect(blocked.start).toBe(`${date}T13:00:00.000Z`);
    expect(blocked.end).toBe(`${date}T14:30:00.000Z`);
    expect(blocked.status).toBe("CONFIRMED");
    expect(event(f, mine).status).toBe("CONFIRMED");
    expect(eventsByUid(f.strict).has(theirs)).toBe(false);
  });

  it("leaves out bookings that start more than 30 days back or 180 days ahead", async () => {
    const inside = await book(weekday(4), "10:00", 0);
    const past = await book(weekday(5), "10:00", 0);
    const far = await book(weekday(6), "10:00", 0);
    // Moved outside the window in D1 (the API books only ahead, and not that far ahead).
    const move = (id: string, at: number) =>
      everyShard.batch([
        everyShard
          .prepare("update bookings set start_at = ?, end_at = ? where id = ?")
          .bind(at, at + 45 * 60_000, id),
        everyShard
          .prepare(
            "update booking_services set reserved_on = ?, reserved_until = ? where booking_id = ?",
          )
          .bind(at, at + 45 * 60_000, id),
      ]);
    await move(past, Date.now() - 31 * DAY);
    await move(far, Date.now() + 181 * DAY);
    const uids = eventsByUid((await feed(await feedUrl(0))).strict);
    expect(uids.has(inside)).toBe(true);
    expect(uids.has(past)).toBe(false);
    expect(uids.has(far)).toBe(false);
  });

  it("escapes commas, semicolons, backslashes and newlines, and folds long lines at 75 octets", async () => {
    const date = weekday(7);
    const first = 'Zoë; "Zo", the\\first';
    // A name is one line (refused otherwise); the notes carry the newline.
    const last = `Müller-Lüdenscheidt, ${"ä".repeat(40)}`;
    const notes = "Allergic to ammonia; bring own dye, please.\nCall before.";
    const uuid = await book(date, "09:00", 0, {
      customer_first_name: first,
      customer_last_name: last,
      booking_comment: notes,
    });
    const f = await feed(await feedUrl(0));
    const e = event(f, uuid);
    // Both readers give back exactly what was stored.
    expect(e.summary).toBe(`Haircut – ${first} ${last}`);
    expect(prop(e.strict, "DESCRIPTION")).toBe(notes);
    expect(e.ical.getFirstPropertyValue("description")).toBe(notes);
    // And the raw text has them escaped (§3.3.11) and folded (§3.1).
    expect(f.text).toContain('Zoë\\; "Zo"\\, the\\\\first');
    expect(f.text).toContain("dye\\, please.\\nCall before.");
    expect(f.text).toMatch(/\r\n [^\r\n]/);
  });

  it("ETag is strong and stable; If-None-Match answers 304 until the feed changes", async () => {
    const date = weekday(8);
    const uuid = await book(date, "09:00", 0);
    const url = await feedUrl(0);
    const first = await fetchFeed(url);
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    const text = await first.text();

    const again = await fetchFeed(url);
    expect(again.headers.get("etag")).toBe(etag);
    expect(await again.text()).toBe(text);

    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const cached = await fetchFeed(url, { "if-none-match": header });
      expect(cached.status, header).toBe(304);
      expect(await cached.text()).toBe("");
      expect(cached.headers.get("etag")).toBe(etag);
    }
    expect((await fetchFeed(url, { "if-none-match": '"other"' })).status).toBe(200);
    // A HEAD (some calendar apps check before fetching) carries the same tag and no body.
    const head = await exports.default.fetch(new Request(url, { method: "HEAD" }));
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(etag);
    expect(await head.text()).toBe("");

    const moved = await put(`/bookings/${uuid}/reschedule`, { reserved_on: `${date}T11:00:00Z` });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const changed = await fetchFeed(url, { "if-none-match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
  });

  it("a token of one workspace shows only its own staffer, never another workspace's data", async () => {
    const other = await createWorkspace();
    const location = await createLocation(other, { timezone: "Europe/Berlin" });
    const staffer = await createStaffer(other, [location.uuid], {
      schedule: WEEKDAYS_9_TO_18(location.uuid),
    });
    const service = await other.api("/services", {
      method: "POST",
      body: { name: "Other shave", duration: 30, price: 1000 },
    });
    expect(service.status, JSON.stringify(service.body)).toBe(201);
    const date = weekday(3);
    const theirs = await other.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: location.uuid,
        service_uuid: service.body.uuid,
        reserved_on: `${date}T09:00:00Z`,
        staffer_uuid: staffer.uuid,
        ...customer("+49 151 99999999"),
      },
    });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
    const made = await other.api(`/staffers/${staffer.uuid}/calendar-feed`, { method: "POST" });
    expect(made.status).toBe(201);

    const mine = (await feed(await feedUrl(0))).text;
    const their = await feed(made.body.url);
    expect(eventsByUid(their.strict).has(theirs.body.uuid)).toBe(true);
    expect(mine).not.toContain(theirs.body.uuid);
    expect(mine).not.toContain("Other shave");
    expect(their.text).not.toContain("Haircut");
    expect(their.text).not.toContain(salon.staffers[0]?.uuid ?? "-");
  });

  it("past 3,000 bookings the feed keeps the earliest 3,000 and says so; one D1 round trip", async () => {
    const own = await createSalon(1);
    const date = weekday(2);
    const res = await own.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: own.location.uuid,
        service_uuid: own.cut.uuid,
        reserved_on: `${date}T09:00:00Z`,
        staffer_uuid: own.staffers[0]?.uuid,
        ...customer(),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const made = await own.ws.api(`/staffers/${own.staffers[0]?.uuid}/calendar-feed`, {
      method: "POST",
    });
    const url: string = made.body.url;
    // 3,000 copies of the booking, a minute apart after it: 3,001 in the window (one past the cap).
    await copyBooking(res.body.uuid, 3000);
    const full = await fetchFeed(url);
    const text = await full.text();
    expect(full.status).toBe(200);
    expect(full.headers.get("feed-truncated")).toBe("true");
    expect(d1RoundTrips(full.headers)).toBe(1);
    const events = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents("vevent");
    expect(events).toHaveLength(3000);
    // The earliest are kept: the original booking and the first 2,999 copies, not the last.
    const uids = new Set(events.map((e) => e.getFirstPropertyValue("uid")));
    expect(uids.has(res.body.uuid)).toBe(true);
    expect(uids.has(`${res.body.uuid}-2999`)).toBe(true);
    expect(uids.has(`${res.body.uuid}-3000`)).toBe(false);

    // Back at the cap: not truncated.
    await everyShard
      .prepare(
        "update booking_services set reserved_on = reserved_on + 400 * 86400000 where booking_id = ?",
      )
      .bind(`${res.body.uuid}-3000`)
      .run();
    const capped = await fetchFeed(url);
    await capped.text();
    expect(capped.headers.get("feed-truncated")).toBeNull();
  });

  it("a token that is unknown or not shaped like one is 404, the same answer", async () => {
    const url = await feedUrl(0);
    const base = url.slice(0, url.lastIndexOf("/") + 1);
    for (const file of [
      `feed_${"A".repeat(43)}.ics`,
      "x.ics",
      "feed_abc",
      url.slice(base.length, -4),
    ]) {
      const res = await fetchFeed(`${base}${file}`);
      expect(res.status, file).toBe(404);
      expect(((await res.json()) as { code: string }).code).toBe("not_found");
    }
  });
});
