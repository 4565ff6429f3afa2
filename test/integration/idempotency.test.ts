import { beforeAll, describe, expect, it } from "vitest";
import { rowCount } from "../helpers/db";
import {
  createLocation,
  createStaffer,
  createWorkspace,
  type TestWorkspace,
} from "../helpers/factory";

let ws: TestWorkspace;
let location: { uuid: string };
let staffer: { uuid: string };
beforeAll(async () => {
  ws = await createWorkspace();
  location = await createLocation(ws);
  staffer = await createStaffer(ws, [location.uuid]);
});

const block = (key: string | undefined, startsAt: string) =>
  ws.api(`/staffers/${staffer.uuid}/blocked-spots`, {
    method: "POST",
    body: { location_uuid: location.uuid, starts_at: startsAt, ends_at: "2030-06-01T23:00:00Z" },
    headers: key ? { "idempotency-key": key } : {},
  });
const spots = () => rowCount("blocked_spots");

describe("Idempotency-Key", () => {
  it("replays the first response for a retry with the same key and body, acting once", async () => {
    const first = await block("key-1", "2030-06-01T10:00:00Z");
    expect(first.status).toBe(201);
    const before = await spots();
    const retry = await block("key-1", "2030-06-01T10:00:00Z");
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(await spots()).toBe(before);
  });

  it("answers 422 for the same key with another body", async () => {
    await block("key-2", "2030-06-01T11:00:00Z");
    const other = await block("key-2", "2030-06-01T12:00:00Z");
    expect(other.status).toBe(422);
    expect(other.body.errors).toHaveProperty("Idempotency-Key");
  });

  it("acts once when retries race each other", async () => {
    const before = await spots();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => block("key-3", "2030-06-01T13:00:00Z")),
    );
    expect(await spots()).toBe(before + 1);
    for (const r of results) expect([201, 409]).toContain(r.status);
    expect(results.filter((r) => r.status === 201).length).toBeGreaterThanOrEqual(1);
  });

  it("keeps keys per workspace and without a key acts every time", async () => {
    const before = await spots();
    await block(undefined, "2030-06-01T14:00:00Z");
    await block(undefined, "2030-06-01T14:00:00Z");
    expect(await spots()).toBe(before + 2);
    const other = await createWorkspace();
    const res = await other.api(`/staffers/${staffer.uuid}/blocked-spots`, {
      method: "POST",
      body: {
        location_uuid: location.uuid,
        starts_at: "2030-06-01T10:00:00Z",
        ends_at: "2030-06-01T23:00:00Z",
      },
      headers: { "idempotency-key": "key-1" },
    });
    // Not a replay of the first workspace's response: its own request runs (and 404s: not its staffer).
    expect(res.status).toBe(404);
  });

  it("refuses a malformed key", async () => {
    const res = await block("bad key with spaces", "2030-06-01T15:00:00Z");
    expect(res.status).toBe(422);
  });
});
