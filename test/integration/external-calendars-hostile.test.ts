import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { serve } from "../helpers/ics-server";
import { createSalon, type Salon } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

/**
 * External calendars whose text is hostile or broken, through HTTP: a refusal is 422
 * `calendar_invalid` (never a 500) with the calendar's status recorded, one unreadable event is
 * left out and counted (`skipped_events`), and a Windows zone name is read as its zone.
 */

const DAY = 86_400_000;
let salon: Salon;
let staffer: string;
let path = 0;
const freshPath = () => `/hostile-${++path}-${crypto.randomUUID()}.ics`;

beforeAll(async () => {
  salon = await createSalon(1);
  staffer = salon.staffers[0]?.uuid ?? "";
});

afterEach(async () => {
  const list = await salon.ws.api(`/staffers/${staffer}/external-calendars?per_page=100`);
  for (const c of list.body.data)
    await salon.ws.api(`/staffers/${staffer}/external-calendars/${c.uuid}`, { method: "DELETE" });
});

const add = (url: string) =>
  salon.ws.api(`/staffers/${staffer}/external-calendars`, { method: "POST", body: { url } });
const sync = (id: string) =>
  salon.ws.api(`/staffers/${staffer}/external-calendars/${id}/sync`, { method: "POST" });
const listed = async (id: string) =>
  (await salon.ws.api(`/staffers/${staffer}/external-calendars?per_page=100`)).body.data.find(
    (c: { uuid: string }) => c.uuid === id,
  );

const calendar = (...parts: string[]) =>
  [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:Microsoft Exchange Server 2010",
    ...parts,
    "END:VCALENDAR",
    "",
  ].join("\r\n");
const vevent = (uid: string, lines: string[]) =>
  ["BEGIN:VEVENT", `UID:${uid}`, "DTSTAMP:20270101T000000Z", ...lines, "END:VEVENT"].join("\r\n");
/** yyyymmddThhmmss of an instant's UTC fields (a wall-clock time when written with a TZID). */
const stamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]|\.\d{3}/g, "")
    .slice(0, 15);
const day = (() => {
  const d = new Date(Date.now() + 30 * DAY);
  d.setUTCHours(0, 0, 0, 0);
  return d.getTime();
})();
const good = vevent("good", [
  `DTSTART:${stamp(day + 10 * 3_600_000)}Z`,
  `DTEND:${stamp(day + 11 * 3_600_000)}Z`,
]);

const externalEntries = async (source: string) =>
  (
    await everyShard
      .prepare(
        "select starts_at, ends_at from calendar_entries where kind = 'external' and source_id = ? order by starts_at",
      )
      .bind(source)
      .all<{ starts_at: number; ends_at: number }>()
  ).results;

describe("external calendars: hostile and broken text", () => {
  it("one malformed transparent event (a line with no value) is left out and counted; the rest is busy time", async () => {
    const broken = vevent("broken", [
      `DTSTART:${stamp(day + 12 * 3_600_000)}Z`,
      "TRANSP:TRANSPARENT",
      "X-MICROSOFT-CDO-BUSYSTATUS FREE",
    ]);
    const added = await add(await serve(freshPath(), { body: calendar(broken, good) }));
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toMatchObject({ status: "ok", busy_count: 1, skipped_events: 1 });
    expect(await listed(added.body.uuid)).toMatchObject({ busy_count: 1, skipped_events: 1 });
  });

  it("60,000 nested components: 422 calendar_invalid (no 500), nothing kept; on a sync, the status says so", async () => {
    const deep = calendar(
      vevent("deep", [
        `DTSTART:${stamp(day)}Z`,
        ...Array.from({ length: 60_000 }, () => "BEGIN:X-N"),
        ...Array.from({ length: 60_000 }, () => "END:X-N"),
      ]),
    );
    const refused = await add(await serve(freshPath(), { body: deep }));
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe("calendar_invalid");
    const p = freshPath();
    const added = await add(await serve(p, { body: calendar(good) }));
    expect(added.status).toBe(201);
    await serve(p, { body: deep });
    const failed = await sync(added.body.uuid);
    expect(failed.status).toBe(422);
    expect(failed.body.code).toBe("calendar_invalid");
    expect(await listed(added.body.uuid)).toMatchObject({
      status: "calendar_invalid",
      busy_count: 1,
    });
  });

  it("every minute since 2000 with BY parts that never match: 422 calendar_invalid, status recorded on a sync", async () => {
    const minutely = calendar(
      vevent("m", [
        "DTSTART:20000101T000000Z",
        "DTEND:20000101T000100Z",
        "RRULE:FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30",
      ]),
    );
    const refused = await add(await serve(freshPath(), { body: minutely }));
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe("calendar_invalid");
    const p = freshPath();
    const added = await add(await serve(p, { body: calendar(good) }));
    await serve(p, { body: minutely });
    expect((await sync(added.body.uuid)).body.code).toBe("calendar_invalid");
    expect(await listed(added.body.uuid)).toMatchObject({ status: "calendar_invalid" });
    // Beside a readable event, it is left out and counted.
    await serve(p, { body: calendar(minutely.split("\r\n").slice(3, -2).join("\r\n"), good) });
    const synced = await sync(added.body.uuid);
    expect(synced.status, JSON.stringify(synced.body)).toBe(200);
    expect(synced.body).toMatchObject({ status: "ok", busy_count: 1, skipped_events: 1 });
  });

  it("a Windows display name without a VTIMEZONE is its zone, not the salon's (Sydney, 10 hours from Berlin)", async () => {
    const tzid = '"(GMT+10:00) Canberra, Melbourne, Sydney"';
    const at = day + 9 * 3_600_000; // 09:00 wall-clock in Sydney
    const sydney = calendar(
      vevent("s", [
        `DTSTART;TZID=${tzid}:${stamp(at)}`,
        `DTEND;TZID=${tzid}:${stamp(at + 3_600_000)}`,
      ]),
    );
    const added = await add(await serve(freshPath(), { body: sydney }));
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const offset = (ms: number) => {
      const parts = new Intl.DateTimeFormat("en-US", {
        timeZone: "Australia/Sydney",
        timeZoneName: "longOffset",
      })
        .formatToParts(ms)
        .find((p) => p.type === "timeZoneName")?.value;
      const m = /GMT([+-])(\d{2}):(\d{2})/.exec(parts ?? "");
      return m ? (m[1] === "+" ? 1 : -1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000 : 0;
    };
    const start = at - offset(at);
    expect(await externalEntries(added.body.uuid)).toEqual([
      { starts_at: start, ends_at: start + 3_600_000 },
    ]);
  });
});
