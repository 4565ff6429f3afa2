import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { calendarFor } from "../../src/calendar/client";
import { fetchCalendar } from "../../src/external-calendars/fetch";
import { failpoints } from "../../src/platform/failpoints";
import { adminDirect } from "../helpers/direct";
import { audit, expectInSync } from "../helpers/calendar";
import { createWorkspace } from "../helpers/factory";
import { d1RoundTrips } from "../helpers/http";
import { ics, seen, serve } from "../helpers/ics-server";
import { createPublishableKey } from "../helpers/keys";
import { createSalon, customer, type Salon } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Days in the sync's window (the next 180 days from the real clock): the
 * Monday at least three weeks ahead, and the days after it. The salon works
 * 09–18 in Berlin, so 10:00Z–12:00Z is working time all year.
 */
const firstMonday = (() => {
  const d = new Date(Date.now() + 21 * DAY);
  d.setUTCHours(0, 0, 0, 0);
  while (d.getUTCDay() !== 1) d.setUTCDate(d.getUTCDate() + 1);
  return d.getTime();
})();
let dayNo = 0;
/** A fresh weekday (Mon–Fri) for each test, so tests never share busy time. */
const nextDay = () => {
  const n = dayNo++;
  return firstMonday + (Math.floor(n / 5) * 7 + (n % 5)) * DAY;
};
const utc = (day: number, hour: number, minute = 0) => day + hour * HOUR + minute * 60_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

let salon: Salon;
let staffer: string;
let path = 0;
const freshPath = () => `/cal-${++path}-${crypto.randomUUID()}.ics`;

beforeAll(async () => {
  salon = await createSalon(1);
  staffer = salon.staffers[0]?.uuid ?? "";
});

// A staffer may have 10 calendars: each test starts with none (their busy time goes with them).
afterEach(async () => {
  const list = await salon.ws.api(`/staffers/${staffer}/external-calendars?per_page=100`);
  for (const c of list.body.data) expect((await remove(c.uuid)).status).toBe(204);
});

const add = (body: Record<string, unknown>, stafferId = staffer, api = () => salon.ws.api) =>
  api()(`/staffers/${stafferId}/external-calendars`, { method: "POST", body });
const sync = (id: string, stafferId = staffer, api = () => salon.ws.api) =>
  api()(`/staffers/${stafferId}/external-calendars/${id}/sync`, { method: "POST" });
const remove = (id: string, stafferId = staffer, api = () => salon.ws.api) =>
  api()(`/staffers/${stafferId}/external-calendars/${id}`, { method: "DELETE" });
const book = (start: number, phone = "+49 151 23456789") =>
  salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      staffer_uuid: staffer,
      reserved_on: iso(start),
      ...customer(phone),
    },
  });
/** The starts (HH:MM, Berlin) the staffer is offered on `day`. */
const starts = async (day: number): Promise<string[]> => {
  const date = dateOf(day);
  const res = await salon.ws.api(
    `/locations/${salon.location.uuid}/time-slots?service_uuid=${salon.cut.uuid}&range_start=${date}&range_end=${date}`,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  // External busy time is read in slot search's one batch: still one D1 round trip.
  expect(d1RoundTrips(res.headers)).toBe(1);
  return (res.body.dates[0]?.slots ?? []).map((s: { start: string }) => s.start);
};
/** The Berlin wall-clock HH:MM of an instant (the time-slot search answers in the location's zone). */
const berlin = (ms: number) =>
  new Intl.DateTimeFormat("en-GB", {
    timeZone: "Europe/Berlin",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(ms);

const rows = async (table: string) =>
  (await everyShard.prepare(`select count(*) as n from ${table}`).first<{ n: number }>())?.n ?? 0;
const externalEntries = async (source: string) =>
  (
    await everyShard
      .prepare(
        "select starts_at, ends_at from calendar_entries where kind = 'external' and source_id = ? order by starts_at",
      )
      .bind(source)
      .all<{ starts_at: number; ends_at: number }>()
  ).results;
const objectExternal = async (source: string) =>
  (await calendarFor(env, salon.ws.id, staffer).entries())
    .filter((e) => e.kind === "external" && e.source === source)
    .map((e) => ({ starts_at: e.start, ends_at: e.end }));

describe("POST /staffers/{staffer_uuid}/external-calendars", () => {
  it("fetches the calendar, hides its busy time from slot search and refuses a booking onto it", async () => {
    const day = nextDay();
    const url = await serve(freshPath(), {
      body: ics([{ uid: "dentist", start: utc(day, 10), end: utc(day, 11) }]),
      etag: '"v1"',
    });
    const before = await starts(day);
    expect(before).toContain(berlin(utc(day, 10)));

    const res = await add({ url, name: "Personal" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      uuid: expect.any(String),
      staffer_uuid: staffer,
      url,
      name: "Personal",
      status: "ok",
      last_synced_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      busy_count: 1,
      skipped_events: 0,
      conflicts: [],
    });

    // The cut lasts 45 minutes plus a 15-minute buffer: starts from 09:00Z to 10:45Z overlap.
    const after = await starts(day);
    for (const m of [0, 15, 30, 45]) expect(after).not.toContain(berlin(utc(day, 10, m)));
    expect(after).not.toContain(berlin(utc(day, 9, 15)));
    expect(after).toContain(berlin(utc(day, 9)));
    expect(after).toContain(berlin(utc(day, 11)));

    const onto = await book(utc(day, 10, 30));
    expect(onto.status, JSON.stringify(onto.body)).toBe(409);
    expect(onto.body.code).toBe("slot_unavailable");
    expect((await book(utc(day, 11))).status).toBe(201);

    expect(await objectExternal(res.body.uuid)).toEqual([
      { starts_at: utc(day, 10), ends_at: utc(day, 11) },
    ]);
    expect(await externalEntries(res.body.uuid)).toEqual([
      { starts_at: utc(day, 10), ends_at: utc(day, 11) },
    ]);
    await expectInSync(salon.ws.id, [staffer]);

    const list = await salon.ws.api(`/staffers/${staffer}/external-calendars`);
    expect(list.status).toBe(200);
    expect(list.body.data).toContainEqual(
      expect.objectContaining({ uuid: res.body.uuid, busy_count: 1 }),
    );
  });

  it("refuses a reschedule and a staffer change onto the busy time (409 slot_unavailable)", async () => {
    const two = await createSalon(2);
    const [a, b] = two.staffers.map((s) => s.uuid);
    const day = nextDay();
    const url = await serve(freshPath(), {
      body: ics([{ uid: "gym", start: utc(day, 10), end: utc(day, 11) }]),
    });
    expect(
      (await two.ws.api(`/staffers/${b}/external-calendars`, { method: "POST", body: { url } }))
        .status,
    ).toBe(201);
    const booked = await two.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: two.location.uuid,
        service_uuid: two.cut.uuid,
        staffer_uuid: b,
        reserved_on: iso(utc(day, 13)),
        ...customer(),
      },
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const moved = await two.ws.api(`/bookings/${booked.body.uuid}/reschedule`, {
      method: "PUT",
      body: { reserved_on: iso(utc(day, 10)) },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(409);
    expect(moved.body.code).toBe("slot_unavailable");

    const onA = await two.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: two.location.uuid,
        service_uuid: two.cut.uuid,
        staffer_uuid: a,
        reserved_on: iso(utc(day, 10)),
        ...customer(),
      },
    });
    expect(onA.status).toBe(201);
    const handed = await two.ws.api(`/bookings/${onA.body.uuid}/staffer`, {
      method: "PUT",
      body: { staffer_uuid: b },
    });
    expect(handed.status, JSON.stringify(handed.body)).toBe(409);
    expect(handed.body.code).toBe("slot_unavailable");
    await expectInSync(two.ws.id, [a ?? "", b ?? ""]);
  });

  it("lists existing bookings the new busy time overlaps and leaves them booked", async () => {
    const day = nextDay();
    const booked = await book(utc(day, 14));
    expect(booked.status).toBe(201);
    const url = await serve(freshPath(), {
      body: ics([{ uid: "late", start: utc(day, 14, 30), end: utc(day, 16) }]),
    });
    const res = await add({ url });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.conflicts).toEqual([booked.body.uuid]);
    const still = await salon.ws.api(`/bookings/${booked.body.uuid}`);
    expect(still.body.is_canceled ?? false).toBe(false);
    await expectInSync(salon.ws.id, [staffer]);
  });

  it.each([
    ["connection refused", async () => "http://127.0.0.1:1/refused.ics", "calendar_unreachable"],
    ["a 500", () => serve(freshPath(), { status: 500, body: "oops" }), "calendar_unreachable"],
    ["a 404", () => serve(freshPath(), { status: 404 }), "calendar_unreachable"],
    [
      "no answer within the time limit",
      () => serve(freshPath(), { body: ics([]), delayMs: 4_000 }),
      "calendar_unreachable",
    ],
    [
      "redirects in a loop",
      async () => {
        const p = freshPath();
        return serve(p, { status: 302, headers: { location: p } });
      },
      "calendar_unreachable",
    ],
    ["not iCalendar", () => serve(freshPath(), { body: "<html>hello</html>" }), "calendar_invalid"],
    [
      "more than 2 MB, streamed without a length",
      () => serve(freshPath(), { streamBytes: 3 * 1024 * 1024 }),
      "calendar_invalid",
    ],
  ])("refuses a calendar that answers %s with 422 and keeps nothing", async (_, url, code) => {
    const [calendars, entries] = [await rows("external_calendars"), await rows("calendar_entries")];
    const res = await add({ url: await url() });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body).toMatchObject({ code, message: expect.any(String) });
    expect(await rows("external_calendars")).toBe(calendars);
    expect(await rows("calendar_entries")).toBe(entries);
  });

  it("follows a redirect to the calendar", async () => {
    const target = await serve(freshPath(), { body: ics([]) });
    const url = await serve(freshPath(), {
      status: 301,
      headers: { location: new URL(target).pathname },
    });
    const res = await add({ url });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ url, busy_count: 0 });
  });

  it("a redirect whose Location is no URL: 422 calendar_unreachable, nothing kept", async () => {
    const before = await rows("external_calendars");
    const url = await serve(freshPath(), { status: 302, headers: { location: "http://[" } });
    const res = await add({ url });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.code).toBe("calendar_unreachable");
    expect(await rows("external_calendars")).toBe(before);
  });

  it("judges every redirect's target by the URL guard (where private addresses are not allowed)", async () => {
    // The first URL passed the route's guard; the redirect would lead into a private network.
    const url = await serve(freshPath(), {
      status: 302,
      headers: { location: "http://10.0.0.7/calendar.ics" },
    });
    const refused = fetchCalendar(url, { etag: null, timeoutMs: 1_500, allowPrivate: false });
    await expect(refused).rejects.toMatchObject({ code: "calendar_unreachable" });
    await expect(refused).rejects.toThrow(/redirects to an address that is not allowed/);
  });

  it("allows a staffer 10 calendars: the 11th is 422, and two adds racing for the last place get one", async () => {
    const own = await createSalon(1);
    const who = own.staffers[0]?.uuid ?? "";
    const url = await serve(freshPath(), { body: ics([]) });
    const addTo = () => add({ url }, who, () => own.ws.api);
    for (let i = 0; i < 9; i++) expect((await addTo()).status).toBe(201);
    const pair = await Promise.all([addTo(), addTo()]);
    expect(pair.map((r) => r.status).sort()).toEqual([201, 422]);
    const past = await addTo();
    expect(past.status).toBe(422);
    expect(past.body.code).toBe("validation_failed");
    expect(past.body.errors.staffer_uuid[0]).toMatch(/10 external calendars/);
    const list = await own.ws.api(`/staffers/${who}/external-calendars`);
    expect(list.body.meta.total).toBe(10);
  });

  it("applies the URL guard: http(s) only, no credentials", async () => {
    for (const url of ["ftp://example.com/a.ics", "https://user:pw@example.com/a.ics", "nope"]) {
      const res = await add({ url });
      expect(res.status, url).toBe(422);
      expect(res.body.code).toBe("validation_failed");
      expect(res.body.errors.url).toBeDefined();
    }
  });

  it("is for secret keys only, and one workspace's staffers only", async () => {
    const pk = await createPublishableKey(salon.ws);
    const url = await serve(freshPath(), { body: ics([]) });
    const byWidget = await add({ url }, staffer, () => pk.api);
    expect(byWidget.status).toBe(403);

    const other = await createWorkspace();
    const theirs = await add({ url }, staffer, () => other.api);
    expect(theirs.status).toBe(404);
    const mine = await add({ url });
    expect(mine.status).toBe(201);
    expect((await sync(mine.body.uuid, staffer, () => other.api)).status).toBe(404);
    expect((await remove(mine.body.uuid, staffer, () => other.api)).status).toBe(404);
    const listed = await other.api(`/staffers/${staffer}/external-calendars`);
    expect(listed.status).toBe(404);
    expect((await sync(mine.body.uuid)).status).toBe(200);
  });
});

describe("POST …/external-calendars/{uuid}/sync", () => {
  it("replaces the busy time with a changed calendar's, as a whole", async () => {
    const day = nextDay();
    const p = freshPath();
    const url = await serve(p, {
      body: ics([
        { uid: "a", start: utc(day, 10), end: utc(day, 11) },
        { uid: "b", start: utc(day, 13), end: utc(day, 14) },
      ]),
      etag: '"1"',
    });
    const added = await add({ url });
    expect(added.body.busy_count).toBe(2);
    await serve(p, {
      body: ics([{ uid: "c", start: utc(day, 15), end: utc(day, 16) }]),
      etag: '"2"',
    });
    const res = await sync(added.body.uuid);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: "ok", busy_count: 1, conflicts: [] });
    const want = [{ starts_at: utc(day, 15), ends_at: utc(day, 16) }];
    expect(await externalEntries(added.body.uuid)).toEqual(want);
    expect(await objectExternal(added.body.uuid)).toEqual(want);
    expect((await book(utc(day, 10))).status).toBe(201);
    expect((await book(utc(day, 15, 15))).status).toBe(409);
    await expectInSync(salon.ws.id, [staffer]);
  });

  it("sends the ETag back; a 304 keeps the busy time and moves last_synced_at", async () => {
    const day = nextDay();
    const p = freshPath();
    const url = await serve(p, {
      body: ics([{ uid: "a", start: utc(day, 10), end: utc(day, 11) }]),
      etag: '"same"',
    });
    const added = await add({ url });
    expect(added.status).toBe(201);
    await new Promise((r) => setTimeout(r, 1_100));
    const res = await sync(added.body.uuid);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "ok", busy_count: 1, conflicts: [] });
    expect(res.body.last_synced_at > added.body.last_synced_at).toBe(true);
    expect((await seen(p)).map((s) => s.ifNoneMatch)).toEqual([null, '"same"']);
    expect(await objectExternal(added.body.uuid)).toEqual([
      { starts_at: utc(day, 10), ends_at: utc(day, 11) },
    ]);
    expect((await book(utc(day, 10))).status).toBe(409);
  });

  it("keeps the last good busy time when a sync fails, and says why", async () => {
    const day = nextDay();
    const p = freshPath();
    const url = await serve(p, {
      body: ics([{ uid: "a", start: utc(day, 10), end: utc(day, 11) }]),
    });
    const added = await add({ url });
    await serve(p, { status: 500 });
    const failed = await sync(added.body.uuid);
    expect(failed.status).toBe(422);
    expect(failed.body.code).toBe("calendar_unreachable");
    await serve(p, { body: "garbage" });
    expect((await sync(added.body.uuid)).body.code).toBe("calendar_invalid");
    const list = await salon.ws.api(`/staffers/${staffer}/external-calendars?per_page=100`);
    expect(list.body.data).toContainEqual(
      expect.objectContaining({ uuid: added.body.uuid, status: "calendar_invalid", busy_count: 1 }),
    );
    expect((await book(utc(day, 10))).status).toBe(409);
  });

  it("a booking racing a sync: never accepted over time the calendar already held, every overlap listed, calendars equal to D1", async () => {
    for (let round = 0; round < 5; round++) {
      const day = nextDay();
      const p = freshPath();
      const url = await serve(p, { body: ics([]), etag: '"empty"' });
      const added = await add({ url });
      await serve(p, {
        body: ics([{ uid: "x", start: utc(day, 10), end: utc(day, 11) }]),
        etag: '"busy"',
      });
      const [booked, synced] = await Promise.all([
        book(utc(day, 10), `+49 151 2345${String(7000 + round)}`),
        sync(added.body.uuid),
      ]);
      expect(synced.status, JSON.stringify(synced.body)).toBe(200);
      if (booked.status === 201) {
        expect(synced.body.conflicts).toEqual([booked.body.uuid]);
      } else {
        expect(booked.status, JSON.stringify(booked.body)).toBe(409);
        expect(synced.body.conflicts).toEqual([]);
      }
      // Once the sync answered, the time is refused.
      expect((await book(utc(day, 10, 15), "+49 151 23459999")).status).toBe(409);
      await expectInSync(salon.ws.id, [staffer]);
    }
  });
});

describe("DELETE …/external-calendars/{uuid}", () => {
  it("frees the busy time at once and removes the calendar", async () => {
    const day = nextDay();
    const url = await serve(freshPath(), {
      body: ics([{ uid: "a", start: utc(day, 10), end: utc(day, 11) }]),
    });
    const added = await add({ url });
    expect((await book(utc(day, 10))).status).toBe(409);
    const res = await remove(added.body.uuid);
    expect(res.status).toBe(204);
    expect(await externalEntries(added.body.uuid)).toEqual([]);
    expect(await objectExternal(added.body.uuid)).toEqual([]);
    expect(await starts(day)).toContain(berlin(utc(day, 10)));
    expect((await book(utc(day, 10))).status).toBe(201);
    expect((await remove(added.body.uuid)).status).toBe(404);
    expect((await sync(added.body.uuid)).status).toBe(404);
    await expectInSync(salon.ws.id, [staffer]);
  });
});

describe("the audit and the rebuild of a calendar cover external busy time", () => {
  it("reports external time missing from the calendar object, and a rebuilt object refuses it again", async () => {
    const day = nextDay();
    const url = await serve(freshPath(), {
      body: ics([{ uid: "a", start: utc(day, 10), end: utc(day, 11) }]),
    });
    const added = await add({ url });
    const stub = calendarFor(env, salon.ws.id, staffer);
    // A calendar object that lost its external time (a reset namespace, a lost call).
    await runInDurableObject(stub, (_i, state) => {
      state.storage.sql.exec("DELETE FROM entries WHERE kind = 'external'");
    });
    const report = await audit(salon.ws.id, staffer);
    expect(report.in_sync).toBe(false);
    expect(report.only_in_d1).toContainEqual({
      external_calendar_uuid: added.body.uuid,
      starts_at: iso(utc(day, 10)),
      ends_at: iso(utc(day, 11)),
    });
    const rebuilt = await adminDirect(
      `/workspaces/${salon.ws.id}/staffers/${staffer}/calendar/rebuild`,
      { method: "POST" },
    );
    expect(rebuilt.status, JSON.stringify(rebuilt.body)).toBe(200);
    expect((await book(utc(day, 10))).status).toBe(409);
    await expectInSync(salon.ws.id, [staffer]);

    // A calendar object that starts empty (a reset namespace) loads D1 before its first claim,
    // the external time with the rest.
    await runInDurableObject(stub, (_i, state) => {
      state.storage.sql.exec("DELETE FROM entries");
      state.storage.sql.exec("DELETE FROM meta");
    });
    // Straight to the calendar object (a booking through HTTP is refused by slot search first).
    const claim = await stub.claim({
      owner: { workspaceId: salon.ws.id, calendarId: staffer },
      holdId: crypto.randomUUID(),
      entries: [
        {
          id: crypto.randomUUID(),
          kind: "booking",
          source: crypto.randomUUID(),
          start: utc(day, 10, 15),
          end: utc(day, 10, 45),
        },
      ],
      checkConflicts: true,
    });
    expect(claim).toMatchObject({
      ok: false,
      reason: "overlap",
      conflicts: [{ kind: "external", source: added.body.uuid }],
    });
    await expectInSync(salon.ws.id, [staffer]);
  });
});

describe("the refresh alarm", () => {
  it("refetches every 15 minutes on its own, and stops once the calendar is removed", async () => {
    const day = nextDay();
    const p = freshPath();
    const url = await serve(p, {
      body: ics([{ uid: "a", start: utc(day, 10), end: utc(day, 11) }]),
      etag: '"1"',
    });
    const before = Date.now();
    const added = await add({ url });
    const clock = env.CALENDAR_SYNCS.getByName(added.body.uuid);
    const alarmAt = await runInDurableObject(clock, (_i, state) => state.storage.getAlarm());
    expect(alarmAt).toBeGreaterThanOrEqual(before + 15 * 60_000);
    expect(alarmAt).toBeLessThanOrEqual(Date.now() + 15 * 60_000);

    await serve(p, {
      body: ics([{ uid: "b", start: utc(day, 13), end: utc(day, 14) }]),
      etag: '"2"',
    });
    expect(await runDurableObjectAlarm(clock)).toBe(true);
    expect(await objectExternal(added.body.uuid)).toEqual([
      { starts_at: utc(day, 13), ends_at: utc(day, 14) },
    ]);
    expect(await externalEntries(added.body.uuid)).toEqual([
      { starts_at: utc(day, 13), ends_at: utc(day, 14) },
    ]);
    expect((await seen(p)).map((s) => s.ifNoneMatch)).toEqual(['"1"']);
    // Re-armed for the next round; a 304 round keeps the time.
    expect(await runDurableObjectAlarm(clock)).toBe(true);
    expect((await seen(p)).map((s) => s.ifNoneMatch)).toEqual(['"1"', '"2"']);
    expect(await objectExternal(added.body.uuid)).toHaveLength(1);
    // A failing fetch keeps the time and the clock.
    await serve(p, { status: 503 });
    expect(await runDurableObjectAlarm(clock)).toBe(true);
    expect(await objectExternal(added.body.uuid)).toHaveLength(1);
    await expectInSync(salon.ws.id, [staffer]);

    expect((await remove(added.body.uuid)).status).toBe(204);
    expect(await runDurableObjectAlarm(clock)).toBe(false);
  });
});

describe("an invocation that stops between D1 and the calendar object", () => {
  afterEach(() => failpoints.disarmAll());

  it("a sync stopped after the D1 batch: the next sync hands the time over, a booking onto it is 409", async () => {
    const day = nextDay();
    const p = freshPath();
    const url = await serve(p, {
      body: ics([{ uid: "a", start: utc(day, 10), end: utc(day, 11) }]),
      etag: '"1"',
    });
    const added = await add({ url });
    expect(added.status).toBe(201);
    await serve(p, {
      body: ics([{ uid: "b", start: utc(day, 13), end: utc(day, 14) }]),
      etag: '"2"',
    });
    failpoints.arm("external-calendars.handover", (d) => d === "sync");
    expect((await sync(added.body.uuid)).status).toBe(500);
    const want = [{ starts_at: utc(day, 13), ends_at: utc(day, 14) }];
    expect(await externalEntries(added.body.uuid)).toEqual(want);

    const again = await sync(added.body.uuid);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(await objectExternal(added.body.uuid)).toEqual(want);
    expect((await book(utc(day, 13, 15))).status).toBe(409);
    await expectInSync(salon.ws.id, [staffer]);
    // Handed over: the next sync may be answered 304 again.
    expect((await sync(added.body.uuid)).status).toBe(200);
    expect((await seen(p)).at(-1)?.ifNoneMatch).toBe('"2"');
  });

  it("an add stopped after the D1 insert: its clock runs, and its first round hands the time over", async () => {
    const day = nextDay();
    const url = await serve(freshPath(), {
      body: ics([{ uid: "a", start: utc(day, 10), end: utc(day, 11) }]),
      etag: '"1"',
    });
    failpoints.arm("external-calendars.handover", (d) => d === "add");
    expect((await add({ url })).status).toBe(500);
    const list = await salon.ws.api(`/staffers/${staffer}/external-calendars`);
    const id: string = list.body.data[0]?.uuid;
    expect(id).toBeTruthy();
    expect(await objectExternal(id)).toEqual([]);

    const clock = env.CALENDAR_SYNCS.getByName(id);
    expect(await runDurableObjectAlarm(clock)).toBe(true);
    const want = [{ starts_at: utc(day, 10), ends_at: utc(day, 11) }];
    expect(await externalEntries(id)).toEqual(want);
    expect(await objectExternal(id)).toEqual(want);
    expect((await book(utc(day, 10, 15))).status).toBe(409);
    await expectInSync(salon.ws.id, [staffer]);
  });
});
