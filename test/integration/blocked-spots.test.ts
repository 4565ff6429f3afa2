import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { calendarFor } from "../../src/calendar/client";
import { rowCount } from "../helpers/db";
import {
  createLocation,
  createStaffer,
  createWorkspace,
  type TestWorkspace,
} from "../helpers/factory";
import { d1RoundTrips } from "../helpers/http";
import { everyShard } from "../helpers/every-shard";

let ws: TestWorkspace;
let location: { uuid: string };
let other: { uuid: string };
let staffer: { uuid: string };

beforeAll(async () => {
  ws = await createWorkspace();
  location = await createLocation(ws);
  other = await createLocation(ws, { name: "Elsewhere" });
  staffer = await createStaffer(ws, [location.uuid]);
});

const block = (body: Record<string, unknown>, stafferId = staffer.uuid, api = () => ws.api) =>
  api()(`/staffers/${stafferId}/blocked-spots`, { method: "POST", body });

const valid = () => ({
  location_uuid: location.uuid,
  starts_at: "2030-03-04T12:00:00Z",
  ends_at: "2030-03-04T13:00:00Z",
  comment: "Lunch",
  class: "grey",
});

const count = () => rowCount("blocked_spots");

describe("POST /staffers/{staffer_uuid}/blocked-spots", () => {
  it("blocks the range, stores it in UTC whole seconds and claims it in the staffer's calendar", async () => {
    // A fraction of zeros is the whole second it names, and an offset is normalised to UTC.
    const res = await block({
      ...valid(),
      starts_at: "2030-03-04T12:00:00.000Z",
      ends_at: "2030-03-04T14:00:00+01:00",
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      uuid: expect.any(String),
      staffer_uuid: staffer.uuid,
      location_uuid: location.uuid,
      starts_at: "2030-03-04T12:00:00Z",
      ends_at: "2030-03-04T13:00:00Z",
      comment: "Lunch",
      class: "grey",
    });
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(3);
    const entries = await calendarFor(env, ws.id, staffer.uuid).entries();
    expect(entries).toContainEqual({
      id: res.body.uuid,
      kind: "blocked",
      source: res.body.uuid,
      start: Date.UTC(2030, 2, 4, 12),
      end: Date.UTC(2030, 2, 4, 13),
    });
    const mirrored = await everyShard
      .prepare("select * from calendar_entries where source_id = ?")
      .bind(res.body.uuid)
      .first();
    expect(mirrored).toMatchObject({ kind: "blocked", staffer_id: staffer.uuid });
  });

  it("defaults comment and class to null", async () => {
    const { comment: _c, class: _k, ...bare } = valid();
    const res = await block({
      ...bare,
      starts_at: "2030-03-05T08:00:00Z",
      ends_at: "2030-03-05T09:00:00Z",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ comment: null, class: null });
  });

  it.each([
    ["missing location", { location_uuid: undefined }, "location_uuid"],
    ["bad uuid", { location_uuid: "nope" }, "location_uuid"],
    ["location the staffer is not attached to", { location_uuid: "other" }, "location_uuid"],
    ["missing starts_at", { starts_at: undefined }, "starts_at"],
    ["a sub-second start", { starts_at: "2030-03-04T12:00:00.5Z" }, "starts_at"],
    ["an end past 2100", { ends_at: "2101-01-01T00:00:00Z" }, "ends_at"],
    ["date only", { ends_at: "2030-03-04" }, "ends_at"],
    ["end before start", { ends_at: "2030-03-04T11:00:00Z" }, "ends_at"],
    ["empty range", { ends_at: "2030-03-04T12:00:00Z" }, "ends_at"],
    ["over a year", { ends_at: "2031-03-06T12:00:00Z" }, "ends_at"],
  ])("rejects %s with 422 and writes nothing", async (_, change, field) => {
    const before = await count();
    const patched: Record<string, unknown> = { ...valid(), ...change };
    if (patched.location_uuid === "other") patched.location_uuid = other.uuid;
    const res = await block(patched);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toContain(field);
    expect(await count()).toBe(before);
  });

  it("answers 404 for an unknown staffer or another workspace's staffer", async () => {
    expect((await block(valid(), crypto.randomUUID())).status).toBe(404);
    const stranger = await createWorkspace();
    const res = await block(valid(), staffer.uuid, () => stranger.api);
    expect(res.status).toBe(404);
  });
});
