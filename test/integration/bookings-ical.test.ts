import { exports } from "cloudflare:workers";
import ICAL from "ical.js";
import { beforeAll, describe, expect, it } from "vitest";
import { prop, strictIcs } from "../helpers/ics";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

/**
 * The booking's .ics as a calendar app reads it (Mozilla's ical.js parses it): RFC 5545 §3.8.7
 * says an app takes a changed event only when its SEQUENCE grew, and that without a METHOD the
 * DTSTAMP is when the event last changed, so both come from the booking, not from the download.
 */

let salon: Salon;
beforeAll(async () => {
  salon = await createSalon();
});

const put = (path: string, body: unknown) => salon.ws.api(path, { method: "PUT", body });

let day = 0;
/** Each test books on its own weekday in 2030 so tests never share calendar time. */
const DAYS = ["2030-05-01", "2030-05-02", "2030-05-03", "2030-05-06", "2030-05-07", "2030-05-08"];
async function book() {
  const date = DAYS[day++] ?? "";
  const res = await salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      reserved_on: at("09:00", date),
      staffer_uuid: salon.staffers[0]?.uuid,
      ...customer(),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const link: string = res.body.links.find((l: { type: string }) => l.type === "ical").link;
  return { uuid: res.body.uuid as string, date, link };
}

interface Exported {
  text: string;
  contentType: string | null;
  calendar: ICAL.Component;
  event: ICAL.Component;
}

async function download(link: string): Promise<Exported> {
  const res = await exports.default.fetch(new Request(link));
  const text = await res.text();
  expect(res.status, text).toBe(200);
  // Every download read by the letter of RFC 5545 too (throws on any breach).
  strictIcs(text);
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents("vevent");
  const [event, ...more] = events;
  if (!event || more.length > 0) throw new Error(`Expected one VEVENT:\n${text}`);
  return { text, contentType: res.headers.get("content-type"), calendar, event };
}

const value = (e: ICAL.Component, name: string) => e.getFirstPropertyValue(name);
const instant = (e: ICAL.Component, name: string) =>
  (value(e, name) as ICAL.Time).toJSDate().toISOString();
const sequence = (e: ICAL.Component) => Number(value(e, "sequence"));

/** The booking's row: its version and its last change (whole seconds, as iCalendar keeps it). */
async function stored(uuid: string) {
  const row = await everyShard
    .prepare("select version, updated_at from bookings where id = ?")
    .bind(uuid)
    .first<{ version: number; updated_at: number }>();
  if (!row) throw new Error(`No booking ${uuid}`);
  const second = Math.floor(row.updated_at / 1000) * 1000;
  return { version: row.version, changed: new Date(second).toISOString() };
}

/** Moves the booking's last change far back, so the next change must be seen to move it. */
const LONG_AGO = "2029-01-01T00:00:00.000Z";
async function backdate(uuid: string) {
  await everyShard
    .prepare("update bookings set updated_at = ? where id = ?")
    .bind(Date.parse(LONG_AGO), uuid)
    .run();
}

/** Every change shows in the export: SEQUENCE from the version, the stamps from the change. */
async function expectFollows(exported: Exported, uuid: string) {
  const row = await stored(uuid);
  expect(value(exported.event, "uid")).toBe(uuid);
  expect(sequence(exported.event)).toBe(row.version);
  expect(instant(exported.event, "dtstamp")).toBe(row.changed);
  expect(instant(exported.event, "last-modified")).toBe(row.changed);
  // Not an iTIP message (no METHOD, none in the media type): the file is the booking as stored.
  expect(exported.calendar.getFirstProperty("method")).toBeNull();
  expect(exported.contentType).toBe("text/calendar; charset=utf-8");
}

describe("the booking's .ics", () => {
  it("is RFC 5545 text to the letter (the strict reader): CRLF after every line, END:VCALENDAR's too", async () => {
    const b = await book();
    // TEXT that must be escaped and folded: commas, semicolons, a backslash, a newline, 200 octets.
    const notes = `Bring: towel, shampoo; \\ no dye\nsecond line ${"ä".repeat(80)}`;
    const noted = await salon.ws.api(`/bookings/${b.uuid}/public_notes`, {
      method: "POST",
      body: { value: notes },
    });
    expect(noted.status, JSON.stringify(noted.body)).toBe(200);
    const { text } = await download(b.link);
    expect(text.endsWith("END:VCALENDAR\r\n")).toBe(true);
    const calendar = strictIcs(text);
    const events = calendar.children.filter((c) => c.name === "VEVENT");
    expect(events).toHaveLength(1);
    expect(prop(events[0] ?? calendar, "UID")).toBe(b.uuid);
    expect(prop(events[0] ?? calendar, "DESCRIPTION")).toBe(noted.body.public_notes);
  });

  it("a reschedule raises SEQUENCE and moves DTSTART; DTSTAMP and LAST-MODIFIED are the change; UID stays", async () => {
    const b = await book();
    const first = await download(b.link);
    await expectFollows(first, b.uuid);
    expect(sequence(first.event)).toBe(0);
    expect(value(first.event, "status")).toBe("CONFIRMED");
    expect(instant(first.event, "dtstart")).toBe(`${b.date}T09:00:00.000Z`);

    await backdate(b.uuid);
    const moved = await put(`/bookings/${b.uuid}/reschedule`, { reserved_on: at("11:00", b.date) });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const second = await download(b.link);
    await expectFollows(second, b.uuid);
    expect(sequence(second.event)).toBeGreaterThan(sequence(first.event));
    expect(instant(second.event, "dtstart")).toBe(`${b.date}T11:00:00.000Z`);
    expect(instant(second.event, "dtstamp")).not.toBe(LONG_AGO);
    expect(value(second.event, "uid")).toBe(value(first.event, "uid"));
  });

  it("DTSTAMP is the booking's last change, not the download's time; unchanged, two downloads are the same bytes", async () => {
    const b = await book();
    await backdate(b.uuid);
    const first = await download(b.link);
    expect(instant(first.event, "dtstamp")).toBe(LONG_AGO);
    expect(instant(first.event, "last-modified")).toBe(LONG_AGO);
    // A second later (the stamps' resolution), nothing changed: nothing in the file either.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await download(b.link)).text).toBe(first.text);
  });

  it("a staffer change raises SEQUENCE and moves the stamps; a cancel exports STATUS:CANCELLED with a higher SEQUENCE", async () => {
    const b = await book();
    const first = await download(b.link);

    await backdate(b.uuid);
    const handed = await put(`/bookings/${b.uuid}/staffer`, {
      staffer_uuid: salon.staffers[1]?.uuid,
    });
    expect(handed.status, JSON.stringify(handed.body)).toBe(200);
    const second = await download(b.link);
    await expectFollows(second, b.uuid);
    expect(sequence(second.event)).toBeGreaterThan(sequence(first.event));
    expect(instant(second.event, "dtstamp")).not.toBe(LONG_AGO);

    await backdate(b.uuid);
    const canceled = await put(`/bookings/${b.uuid}/status/cancel`, {});
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    const third = await download(b.link);
    await expectFollows(third, b.uuid);
    expect(value(third.event, "status")).toBe("CANCELLED");
    expect(sequence(third.event)).toBeGreaterThan(sequence(second.event));
    expect(instant(third.event, "dtstamp")).not.toBe(LONG_AGO);
    expect(instant(third.event, "dtstart")).toBe(instant(first.event, "dtstart"));
  });
});
