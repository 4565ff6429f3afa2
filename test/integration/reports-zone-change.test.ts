import { beforeAll, describe, expect, it } from "vitest";
import {
  createLocation,
  createStaffer,
  createWorkspace,
  type TestWorkspace,
} from "../helpers/factory";
import { admin } from "../helpers/http";
import { until } from "../helpers/messages";
import { customer } from "../helpers/salon";
import { createService, everyDay, report } from "../helpers/reports";

/**
 * A location's zone changes while it has bookings ahead: their days move with
 * the new zone (the rollups are rebuilt once the change commits), and a later
 * cancel takes each booking off the day it is counted on, so nothing is left
 * behind on the old day.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const dateIn = (ms: number, timeZone: string) =>
  new Intl.DateTimeFormat("en-CA", { timeZone }).format(new Date(ms));

describe("a zone change with bookings ahead", () => {
  let ws: TestWorkspace;
  let location: string;
  let booking: string;
  let start: number;

  beforeAll(async () => {
    ws = await createWorkspace();
    location = (await createLocation(ws, { timezone: "UTC" })).uuid;
    const always = everyDay(location, "00:00", "23:59");
    const sam = (await createStaffer(ws, [location], { first_name: "Sam", schedule: always })).uuid;
    const trim = await createService(ws, { name: "Trim", duration: 60, price: 2000 });
    // Three days ahead at 20:00 UTC: the next day in Tokyo (UTC+9).
    start = Math.floor(Date.now() / DAY) * DAY + 3 * DAY + 20 * HOUR;
    const res = await ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: location,
        service_uuid: trim,
        staffer_uuid: sam,
        reserved_on: new Date(start).toISOString(),
        ...customer("+49 151 40000001"),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    booking = res.body.uuid as string;
  });

  const byDay = async (timeZone: string) => {
    const from = dateIn(start - DAY, timeZone);
    const to = dateIn(start + DAY, timeZone);
    const [shows, time] = await Promise.all([
      report(ws, "no-shows", { location_uuid: location, from, to, group_by: "staffer" }),
      report(ws, "utilization", { location_uuid: location, from, to, group_by: "day" }),
    ]);
    expect(shows.status, JSON.stringify(shows.body)).toBe(200);
    expect(time.status, JSON.stringify(time.body)).toBe(200);
    const booked = Object.fromEntries(
      (time.body.data as { key: string; booked_minutes: number }[])
        .filter((r) => r.booked_minutes !== 0)
        .map((r) => [r.key, r.booked_minutes]),
    );
    return { bookings: shows.body.totals.bookings as number, booked };
  };

  it("moves the booking to its day in the new zone, and a cancel leaves no day behind", async () => {
    expect(await byDay("UTC")).toEqual({
      bookings: 1,
      booked: { [dateIn(start, "UTC")]: 60 },
    });
    const patch = await admin(`/workspaces/${ws.id}/locations/${location}`, {
      method: "PATCH",
      body: { timezone: "Asia/Tokyo" },
    });
    expect(patch.status, JSON.stringify(patch.body)).toBe(200);
    const tokyo = dateIn(start, "Asia/Tokyo");
    expect(tokyo).not.toBe(dateIn(start, "UTC"));
    // The rebuild runs once the change has committed and answered.
    await until(async () => {
      await new Promise((r) => setTimeout(r, 250));
      const now = await byDay("Asia/Tokyo");
      return now.booked[tokyo] === 60 && Object.keys(now.booked).length === 1;
    });
    expect(await byDay("Asia/Tokyo")).toEqual({ bookings: 1, booked: { [tokyo]: 60 } });

    const cancel = await ws.api(`/bookings/${booking}/status/cancel`, { method: "PUT", body: {} });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    // Nothing is left on either zone's days: the cancel took it off the day it was counted on.
    expect(await byDay("Asia/Tokyo")).toEqual({ bookings: 0, booked: {} });
    expect(await byDay("UTC")).toEqual({ bookings: 0, booked: {} });
  });
});
