import { expect } from "vitest";
import type { TestWorkspace } from "./factory";

/** A report through HTTP with the workspace's secret key. */
export const report = (ws: TestWorkspace, name: string, q: Record<string, string>) =>
  ws.api(`/reports/${name}?${new URLSearchParams(q)}`);

/** A service made through the API: its uuid. */
export const createService = async (ws: TestWorkspace, body: Record<string, unknown>) => {
  const res = await ws.api("/services", { method: "POST", body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.uuid as string;
};

/** A weekly schedule at a location on all seven days, `start`..`end` local. */
export const everyDay = (locationId: string, start: string, end: string) =>
  [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ location_uuid: locationId, weekday, start, end }));
