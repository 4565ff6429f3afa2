import { beforeAll, describe, expect, it } from "vitest";
import { d1RoundTrips } from "../helpers/http";
import { ics, serve } from "../helpers/ics-server";
import { createSalon, type Salon } from "../helpers/salon";
import { generateYear } from "../unit/external-calendars/year";

/**
 * Sync time and calendar calls of a year of a busy personal calendar (2,000
 * VEVENTs, the generator of the ICS engine's bench), and of the most busy time
 * a calendar may bring (5,000 intervals): the numbers in docs/scaling.md.
 */
let salon: Salon;
beforeAll(async () => {
  salon = await createSalon(1);
});

const timing = (headers: Headers, name: string) =>
  new RegExp(`${name};(?:dur=([\\d.]+);)?desc="(\\d+) calls"`).exec(
    headers.get("server-timing") ?? "",
  );
const calls = (headers: Headers) => Number(timing(headers, "calendar-total")?.[2] ?? NaN);

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await run();
  return [result, Math.round(performance.now() - started)];
}

describe("external calendars at scale", () => {
  it("a year of 2,000 events: added, changed and unchanged in one calendar call each, within seconds", async () => {
    const staffer = salon.staffers[0]?.uuid ?? "";
    const now = Date.now();
    const path = `/year-${crypto.randomUUID()}.ics`;
    const text = generateYear(2000, now);
    const url = await serve(path, { body: text, etag: '"y1"' });

    const [added, addMs] = await timed(() =>
      salon.ws.api(`/staffers/${staffer}/external-calendars`, { method: "POST", body: { url } }),
    );
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    // The year is laid out from now and only the next 180 days are busy: how many of its
    // events fall there moves with the clock (493 to over 500 in one afternoon), never near 400.
    expect(added.body.busy_count).toBeGreaterThan(400);
    expect(calls(added.headers)).toBe(1);

    // The same year a week later: most events the same, the window moved.
    await serve(path, { body: generateYear(2000, now + 7 * 86_400_000), etag: '"y2"' });
    const [changed, changeMs] = await timed(() =>
      salon.ws.api(`/staffers/${staffer}/external-calendars/${added.body.uuid}/sync`, {
        method: "POST",
      }),
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(calls(changed.headers)).toBe(1);

    const [same, sameMs] = await timed(() =>
      salon.ws.api(`/staffers/${staffer}/external-calendars/${added.body.uuid}/sync`, {
        method: "POST",
      }),
    );
    expect(same.status).toBe(200);
    expect(calls(same.headers)).toBe(0);

    console.log(
      JSON.stringify({
        measure: "2,000-event year",
        bytes: text.length,
        busy_count: added.body.busy_count,
        add_ms: addMs,
        add_d1_round_trips: d1RoundTrips(added.headers),
        changed_sync_ms: changeMs,
        changed_d1_round_trips: d1RoundTrips(changed.headers),
        unchanged_304_ms: sameMs,
        unchanged_d1_round_trips: d1RoundTrips(same.headers),
        server_timing_changed: changed.headers.get("server-timing"),
        server_timing_unchanged: same.headers.get("server-timing"),
        server_timing_add: added.headers.get("server-timing"),
      }),
    );
    expect(addMs).toBeLessThan(15_000);
  });

  it("5,000 busy intervals (the most a calendar may bring) in one call; the 5,001st occurrence refuses it", async () => {
    const staffer = salon.staffers[0]?.uuid ?? "";
    const first = Date.now() + 3_600_000;
    const events = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        uid: `e${i}`,
        // Every 50 minutes for 20 (never merged): 5,000 of them fill 174 days of the 180.
        start: first + i * 50 * 60_000,
        end: first + i * 50 * 60_000 + 20 * 60_000,
      }));
    const url = await serve(`/max-${crypto.randomUUID()}.ics`, { body: ics(events(5000)) });
    const [added, ms] = await timed(() =>
      salon.ws.api(`/staffers/${staffer}/external-calendars`, { method: "POST", body: { url } }),
    );
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.busy_count).toBe(5000);
    expect(calls(added.headers)).toBe(1);
    console.log(
      JSON.stringify({
        measure: "5,000 intervals",
        add_ms: ms,
        d1_round_trips: d1RoundTrips(added.headers),
        server_timing: added.headers.get("server-timing"),
      }),
    );
    const over = await serve(`/over-${crypto.randomUUID()}.ics`, { body: ics(events(5001)) });
    const refused = await salon.ws.api(`/staffers/${staffer}/external-calendars`, {
      method: "POST",
      body: { url: over },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe("calendar_invalid");
  });
});
