import { expect } from "vitest";
import { admin, type Client, client } from "./http";

export interface TestWorkspace {
  id: string;
  apiKey: string;
  api: Client;
  /** The database its data lives on (`SHARD_n`), as the create answer names it. */
  shard: string;
}

export async function createWorkspace(
  overrides: Partial<{ name: string; country: string; currency: string; timezone: string }> = {},
): Promise<TestWorkspace> {
  const res = await admin("/workspaces", {
    method: "POST",
    body: {
      name: "Salon",
      country: "DE",
      currency: "EUR",
      timezone: "Europe/Berlin",
      ...overrides,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return {
    id: res.body.uuid,
    apiKey: res.body.api_key,
    api: client(res.body.uuid, res.body.api_key),
    shard: res.body.shard,
  };
}

export async function createLocation(
  ws: TestWorkspace,
  body: Partial<{ name: string; timezone: string; slot_step: number; min_notice: number }> = {},
) {
  const res = await admin(`/workspaces/${ws.id}/locations`, {
    method: "POST",
    body: { name: "Main street", timezone: "Europe/Berlin", ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uuid: string; name: string; timezone: string };
}

export const WEEKDAYS_9_TO_18 = (locationId: string) =>
  [1, 2, 3, 4, 5].map((weekday) => ({
    location_uuid: locationId,
    weekday,
    start: "09:00",
    end: "18:00",
  }));

export async function createStaffer(
  ws: TestWorkspace,
  locationIds: string[],
  body: Record<string, unknown> = {},
) {
  const res = await admin(`/workspaces/${ws.id}/staffers`, {
    method: "POST",
    body: { first_name: "Alex", location_uuids: locationIds, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uuid: string; first_name: string; location_uuids: string[] };
}
