import { beforeAll, describe, expect, it } from "vitest";
import { rowCount } from "../helpers/db";
import {
  createLocation,
  createStaffer,
  createWorkspace,
  type TestWorkspace,
} from "../helpers/factory";
import { admin } from "../helpers/http";

// A schedule the staffer could not work is refused with every problem at its
// field: the weekly list is `schedule` on a new staffer and `intervals` on
// PUT …/schedule, overrides are `overrides` on both.
let ws: TestWorkspace;
let home: string;
let elsewhere: string;

beforeAll(async () => {
  ws = await createWorkspace();
  home = (await createLocation(ws)).uuid;
  elsewhere = (await createLocation(ws, { name: "Elsewhere" })).uuid;
});

/** Weekly: an interval at a location the staffer is not at, two overlapping, one backwards. */
const weekly = () => [
  { location_uuid: elsewhere, weekday: 1, start: "09:00", end: "10:00" },
  { location_uuid: home, weekday: 2, start: "09:00", end: "12:00" },
  { location_uuid: home, weekday: 2, start: "11:00", end: "13:00" },
  { location_uuid: home, weekday: 3, start: "12:00", end: "11:00" },
];
/** Overrides: one elsewhere, the same date twice, one interval backwards and overlapping. */
const overrides = () => [
  { location_uuid: elsewhere, date: "2030-01-07", intervals: [] },
  { location_uuid: home, date: "2030-01-08", intervals: [{ start: "09:00", end: "10:00" }] },
  {
    location_uuid: home,
    date: "2030-01-08",
    intervals: [
      { start: "09:00", end: "12:00" },
      { start: "11:00", end: "10:00" },
    ],
  },
];

const errorsAt = (weeklyList: string) => ({
  [`${weeklyList}.0.location_uuid`]: ["The staffer is not attached to this location."],
  [`${weeklyList}.2`]: ["Overlaps another interval of the same day."],
  [`${weeklyList}.3`]: ["The end must be after the start."],
  "overrides.0.location_uuid": ["The staffer is not attached to this location."],
  "overrides.2.date": ["This date is overridden twice."],
  "overrides.2.intervals.1": [
    "The end must be after the start.",
    "Overlaps another interval of the same day.",
  ],
});

describe("a schedule the staffer could not work", () => {
  it("is a 422 on a new staffer's schedule and overrides, with nothing written", async () => {
    const before = await rowCount("staffers", ws.id);
    const res = await admin(`/workspaces/${ws.id}/staffers`, {
      method: "POST",
      body: {
        first_name: "Alex",
        location_uuids: [home],
        schedule: weekly(),
        overrides: overrides(),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body).toEqual({
      message: "The staffer is not attached to this location. (and 5 more errors)",
      code: "validation_failed",
      errors: errorsAt("schedule"),
    });
    expect(Object.keys(res.body.errors)).toEqual(Object.keys(errorsAt("schedule")));
    expect(await rowCount("staffers", ws.id)).toBe(before);
  });

  it("is a 422 on PUT …/schedule's intervals and overrides", async () => {
    const staffer = await createStaffer(ws, [home]);
    const res = await admin(`/workspaces/${ws.id}/staffers/${staffer.uuid}/schedule`, {
      method: "PUT",
      body: { intervals: weekly(), overrides: overrides() },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body).toEqual({
      message: "The staffer is not attached to this location. (and 5 more errors)",
      code: "validation_failed",
      errors: errorsAt("intervals"),
    });
    expect(Object.keys(res.body.errors)).toEqual(Object.keys(errorsAt("intervals")));
  });

  it("names an unknown location of a new staffer on location_uuids", async () => {
    const unknown = crypto.randomUUID();
    const res = await admin(`/workspaces/${ws.id}/staffers`, {
      method: "POST",
      body: { first_name: "Alex", location_uuids: [home, unknown] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body).toEqual({
      message: `Unknown location: ${unknown}.`,
      code: "validation_failed",
      errors: { location_uuids: [`Unknown location: ${unknown}.`] },
    });
  });
});
