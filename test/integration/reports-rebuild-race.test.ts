import { afterEach, expect, it } from "vitest";
import { failpoints, rendezvous } from "../../src/platform/failpoints";
import { createLocation, createStaffer, createWorkspace } from "../helpers/factory";
import { everyShard } from "../helpers/every-shard";
import { admin } from "../helpers/http";

afterEach(() => failpoints.disarmAll());

const calendarRows = async (locationId: string) =>
  (
    await everyShard
      .prepare(
        "select day, staffer_id, booked_ms, blocked_ms from report_calendar_days where location_id = ? and (booked_ms <> 0 or blocked_ms <> 0) order by day, staffer_id",
      )
      .bind(locationId)
      .all()
  ).results;

it("a write that moves a rollup between the rebuild's read and write: the guard refuses, the rebuild reads again and counts it", async () => {
  const ws = await createWorkspace();
  const location = await createLocation(ws, { timezone: "Asia/Kolkata" });
  const staffer = await createStaffer(ws, [location.uuid]);
  const block = (starts_at: string, ends_at: string) =>
    ws.api(`/staffers/${staffer.uuid}/blocked-spots`, {
      method: "POST",
      body: { location_uuid: location.uuid, starts_at, ends_at },
    });
  // 23:00 to 01:00 in Kolkata: an hour on each local day.
  expect((await block("2031-03-04T17:30:00Z", "2031-03-04T19:30:00Z")).status).toBe(201);
  const before = await calendarRows(location.uuid);
  expect(before).toHaveLength(2);

  failpoints.meet("reports.rebuild.before_write", 2, 10_000);
  const reads = failpoints.hits("reports.rebuild.read");
  const refused = failpoints.hits("reports.rebuild.guard_refused");
  const rebuilding = admin(`/workspaces/${ws.id}/reports/rebuild?location_uuid=${location.uuid}`, {
    method: "POST",
  });
  while (failpoints.hits("reports.rebuild.read") === reads)
    await new Promise((resolve) => setTimeout(resolve, 5));
  expect((await block("2031-03-05T04:30:00Z", "2031-03-05T05:00:00Z")).status).toBe(201);
  await rendezvous("reports.rebuild.before_write");
  const res = await rebuilding;
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toEqual({ locations: 1, rows: 2 });
  expect(failpoints.hits("reports.rebuild.guard_refused")).toBe(refused + 1);
  expect(failpoints.hits("reports.rebuild.read")).toBe(reads + 2);
  // The second read saw the new block: 30 more minutes on the 5th.
  const after = await calendarRows(location.uuid);
  expect(after).toEqual([
    before[0],
    { ...before[1], blocked_ms: Number(before[1]?.blocked_ms) + 30 * 60_000 },
  ]);
});

it("an unknown location is 404; without location_uuid every location is rebuilt", async () => {
  const ws = await createWorkspace();
  await createLocation(ws);
  await createLocation(ws, { name: "Second" });
  const unknown = await admin(
    `/workspaces/${ws.id}/reports/rebuild?location_uuid=00000000-0000-4000-8000-000000000000`,
    { method: "POST" },
  );
  expect(unknown.status).toBe(404);
  const all = await admin(`/workspaces/${ws.id}/reports/rebuild`, { method: "POST" });
  expect(all.status, JSON.stringify(all.body)).toBe(200);
  expect(all.body).toEqual({ locations: 2, rows: 0 });
});

it("a location without offsets (made before 0038) gets them, and its days are counted in its zone", async () => {
  const ws = await createWorkspace();
  const location = await createLocation(ws, { timezone: "Asia/Kolkata" });
  const staffer = await createStaffer(ws, [location.uuid]);
  await everyShard
    .prepare("delete from location_offsets where location_id = ?")
    .bind(location.uuid)
    .run();
  // 23:00 to 01:00 in Kolkata; without offsets the trigger counted it as UTC (one day).
  const made = await ws.api(`/staffers/${staffer.uuid}/blocked-spots`, {
    method: "POST",
    body: {
      location_uuid: location.uuid,
      starts_at: "2031-03-04T17:30:00Z",
      ends_at: "2031-03-04T19:30:00Z",
    },
  });
  expect(made.status).toBe(201);
  expect(await calendarRows(location.uuid)).toHaveLength(1);
  const res = await admin(`/workspaces/${ws.id}/reports/rebuild`, { method: "POST" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const offsets = await everyShard
    .prepare("select count(*) as n from location_offsets where location_id = ?")
    .bind(location.uuid)
    .first<{ n: number }>();
  expect(offsets?.n).toBeGreaterThan(0);
  expect((await calendarRows(location.uuid)).map((r) => r.blocked_ms)).toEqual([
    3_600_000, 3_600_000,
  ]);
});
