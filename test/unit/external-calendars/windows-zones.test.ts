import { describe, expect, it } from "vitest";
import { busyFromIcs, readBusy } from "../../../src/external-calendars/rules";
import { foreignZone } from "../../../src/external-calendars/rules/windows-zones";

/** TZIDs that Windows-made calendars write without a VTIMEZONE, read as the zone they name. */

const calendar = (tzid: string, wall = "20270705T100000", end = "20270705T110000") =>
  [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:Microsoft Exchange Server 2010",
    "BEGIN:VEVENT",
    "UID:w",
    "DTSTAMP:20270101T000000Z",
    `DTSTART;TZID=${tzid}:${wall}`,
    `DTEND;TZID=${tzid}:${end}`,
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");
const OPTIONS = { now: Date.parse("2027-07-01T00:00:00Z"), days: 30, defaultZone: "Europe/Berlin" };
const startOf = (tzid: string) =>
  new Date(busyFromIcs(calendar(tzid), OPTIONS)[0]?.start ?? 0).toISOString();

describe("Windows and offset TZIDs without a VTIMEZONE", () => {
  it.each([
    // 10:00 on 5 July 2027 (southern winter in Sydney: UTC+10; summer time in the north).
    ['"(GMT+10:00) Canberra, Melbourne, Sydney"', "2027-07-05T00:00:00.000Z"],
    ['"(UTC+10:00) Canberra, Melbourne, Sydney"', "2027-07-05T00:00:00.000Z"],
    ['"(UTC-05:00) Eastern Time (US and Canada)"', "2027-07-05T14:00:00.000Z"],
    ["AUS Eastern Standard Time", "2027-07-05T00:00:00.000Z"],
    ["Pacific Standard Time", "2027-07-05T17:00:00.000Z"],
    ['"W. Europe Standard Time"', "2027-07-05T08:00:00.000Z"],
    // An offset alone: that offset, all year.
    ['"(GMT +01:00)"', "2027-07-05T09:00:00.000Z"],
    ['"UTC+05:30"', "2027-07-05T04:30:00.000Z"],
    ["GMT-4", "2027-07-05T14:00:00.000Z"],
    // Unknown cities after an offset: the offset.
    ['"(UTC+03:00) Nowhere, Elsewhere"', "2027-07-05T07:00:00.000Z"],
    // Nothing a zone can be read from: the salon's zone (Berlin, UTC+2 in July).
    ["My Own Zone", "2027-07-05T08:00:00.000Z"],
  ])("%s → %s", (tzid, instant) => {
    expect(startOf(tzid)).toBe(instant);
  });

  it("offsets past ±14 hours or with 60 minutes name no zone", () => {
    expect(foreignZone("UTC+15:00")).toBeNull();
    expect(foreignZone("(GMT+01:60)")).toBeNull();
    expect(foreignZone("UTC+14:00")).toEqual({ offsetMinutes: 840 });
  });

  it("a floating UNTIL is read in DTSTART's zone: a New York series keeps its last 10:00", () => {
    const text = [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//test//EN",
      "BEGIN:VEVENT",
      "UID:u",
      "DTSTAMP:20270101T000000Z",
      "DTSTART;TZID=America/New_York:20270701T100000",
      "DTEND;TZID=America/New_York:20270701T110000",
      "RRULE:FREQ=DAILY;UNTIL=20270705T100000",
      "END:VEVENT",
      "END:VCALENDAR",
      "",
    ].join("\r\n");
    const busy = readBusy(text, OPTIONS).busy;
    expect(busy.map((b) => new Date(b.start).toISOString())).toEqual(
      [1, 2, 3, 4, 5].map((d) => `2027-07-0${d}T14:00:00.000Z`),
    );
  });

  it("a VTIMEZONE whose rules start in year 1 (eM Client) is read, from 1970 on", () => {
    const text = [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//emClient//EN",
      "BEGIN:VTIMEZONE",
      "TZID:W. Europe Standard Time",
      "BEGIN:DAYLIGHT",
      "DTSTART:00010325T020000",
      "TZOFFSETFROM:+0100",
      "TZOFFSETTO:+0200",
      "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3",
      "END:DAYLIGHT",
      "BEGIN:STANDARD",
      "DTSTART:00011028T030000",
      "TZOFFSETFROM:+0200",
      "TZOFFSETTO:+0100",
      "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10",
      "END:STANDARD",
      "END:VTIMEZONE",
      "BEGIN:VEVENT",
      "UID:e",
      "DTSTAMP:20270101T000000Z",
      'DTSTART;TZID="W. Europe Standard Time":20270705T100000',
      'DTEND;TZID="W. Europe Standard Time":20270705T110000',
      "END:VEVENT",
      "END:VCALENDAR",
      "",
    ].join("\r\n");
    expect(readBusy(text, { ...OPTIONS, defaultZone: "UTC" }).busy).toEqual([
      { start: Date.parse("2027-07-05T08:00:00Z"), end: Date.parse("2027-07-05T09:00:00Z") },
    ]);
  });
});
