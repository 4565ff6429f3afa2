import { expect } from "vitest";
import type { TestWorkspace } from "./factory";
import { admin } from "./http";

export interface TestResource {
  uuid: string;
  location_uuid: string;
  name: string;
  kind: string;
  quantity: number;
  created_at: string;
}

/** A resource through the management API (`kind` other, one unit, unless given). */
export async function createResource(
  ws: TestWorkspace,
  locationId: string,
  body: Partial<{ name: string; kind: string; quantity: number }> = {},
): Promise<TestResource> {
  const res = await admin(`/workspaces/${ws.id}/resources`, {
    method: "POST",
    body: { location_uuid: locationId, name: "Room 1", ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as TestResource;
}
