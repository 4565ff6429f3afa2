import { beforeAll, describe, expect, it } from "vitest";
import { parseApiKey, sha256Hex } from "../../src/tenancy/api-keys";
import { failpoints } from "../../src/platform/failpoints";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import { admin, type Client, client } from "../helpers/http";
import { createPublishableKey } from "../helpers/keys";
import { rowCount } from "../helpers/db";
import {
  createLocation,
  createStaffer,
  createWorkspace,
  type TestWorkspace,
} from "../helpers/factory";
import { everyShard } from "../helpers/every-shard";

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

/** The reservation a request leaves behind when its isolate dies before it answers. */
async function abandonedReservation(key: string, startsAt: string, leaseLeftMs: number) {
  const body = JSON.stringify({
    location_uuid: location.uuid,
    starts_at: startsAt,
    ends_at: "2030-06-01T23:00:00Z",
  });
  const path = `/api/public/v2/staffers/${staffer.uuid}/blocked-spots`;
  const now = Date.now();
  await everyShard
    .prepare(
      "INSERT INTO idempotency_keys (workspace_id, api_key_id, key, method, path, body_hash, status, response, created_at, expires_at) VALUES (?, ?, ?, 'POST', ?, ?, 0, '', ?, ?)",
    )
    .bind(
      ws.id,
      parseApiKey(ws.apiKey)?.id,
      key,
      path,
      await sha256Hex(`POST ${path}\n${body}`),
      now,
      now + leaseLeftMs,
    )
    .run();
}

describe("Idempotency-Key", () => {
  it("reserves a key with a short lease while its request runs", async () => {
    const salon = await createSalon(1);
    const booked = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: at("10:00"),
        ...customer(),
      },
    });
    expect(booked.status).toBe(201);
    // Hold the request just before its write, and look at its reservation meanwhile.
    failpoints.meet("booking.change.before_write", 2, 1_500);
    const running = salon.ws.api(`/bookings/${booked.body.uuid}/public_notes`, {
      method: "POST",
      body: { value: "window seat" },
      headers: { "idempotency-key": "lease-1" },
    });
    let lease: { created_at: number; expires_at: number; status: number } | null = null;
    for (let i = 0; i < 100 && !lease; i++) {
      await new Promise((r) => setTimeout(r, 10));
      lease = await everyShard
        .prepare(
          "SELECT created_at, expires_at, status FROM idempotency_keys WHERE workspace_id = ? AND key = 'lease-1'",
        )
        .bind(salon.ws.id)
        .first();
    }
    expect(lease?.status).toBe(0);
    expect((lease?.expires_at ?? 0) - (lease?.created_at ?? 0)).toBe(60_000);
    expect((await running).status).toBe(200);
    failpoints.disarmAll();
  });

  it("a reservation whose request died blocks retries only until its lease ends", async () => {
    await abandonedReservation("died-live", "2030-06-01T15:00:00Z", 60_000);
    const early = await block("died-live", "2030-06-01T15:00:00Z");
    expect(early.status).toBe(409);
    expect(early.body.code).toBe("conflict");
    expect(Number(early.headers.get("retry-after"))).toBeGreaterThan(0);

    await abandonedReservation("died-expired", "2030-06-01T16:00:00Z", -1);
    const before = await spots();
    const retry = await block("died-expired", "2030-06-01T16:00:00Z");
    expect(retry.status).toBe(201);
    expect(await spots()).toBe(before + 1);
    // The retry's answer is now the key's answer, kept for the full day.
    const replay = await block("died-expired", "2030-06-01T16:00:00Z");
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(retry.body);
    const row = await everyShard
      .prepare(
        "SELECT expires_at FROM idempotency_keys WHERE workspace_id = ? AND key = 'died-expired'",
      )
      .bind(ws.id)
      .first<{ expires_at: number }>();
    expect(row?.expires_at).toBeGreaterThan(Date.now() + 23 * 3_600_000);
  });

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

describe("Idempotency-Key is scoped to the API key that sent it", () => {
  let salon: Salon;
  let pk: Client;
  let secondSecret: Client;
  beforeAll(async () => {
    salon = await createSalon(3);
    pk = (await createPublishableKey(salon.ws)).api;
    const issued = await admin(`/workspaces/${salon.ws.id}/api-keys`, { method: "POST" });
    expect(issued.status).toBe(201);
    secondSecret = client(salon.ws.id, issued.body.api_key);
  });

  let day = 0;
  /** A weekday of its own per call, so the bookings below never compete for time. */
  const nextDate = () => {
    day += 1;
    return new Date(Date.UTC(2030, 4, 6) + day * 7 * 86_400_000).toISOString().slice(0, 10);
  };
  const book = (api: Client, key: string, start: string, phone = "+49 151 23456789") =>
    api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: start,
        ...customer(phone),
      },
      headers: { "idempotency-key": key },
    });
  const bookingCount = async () =>
    (
      await everyShard
        .prepare("SELECT count(*) AS n FROM bookings WHERE workspace_id = ?")
        .bind(salon.ws.id)
        .first<{ n: number }>()
    )?.n ?? 0;

  it("a publishable key's key K first, then the secret key's K with another body: the secret key's own answer", async () => {
    const date = nextDate();
    const squat = await book(pk, "integration-order-1", at("09:00", date), "+49 151 10000001");
    expect(squat.status).toBe(201);
    const mine = await book(salon.ws.api, "integration-order-1", at("11:00", date));
    expect(mine.status, JSON.stringify(mine.body)).toBe(201);
    expect(mine.headers.get("idempotent-replayed")).toBeNull();
    expect(mine.body.uuid).not.toBe(squat.body.uuid);
    expect(mine.body.start_time).toBe(at("11:00", date));
    // Each key still replays its own answer.
    const again = await book(salon.ws.api, "integration-order-1", at("11:00", date));
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.uuid).toBe(mine.body.uuid);
    const theirs = await book(pk, "integration-order-1", at("09:00", date), "+49 151 10000001");
    expect(theirs.headers.get("idempotent-replayed")).toBe("true");
    expect(theirs.body.uuid).toBe(squat.body.uuid);
  });

  it("the same key and the same body from another API key is not a replay of the stranger's answer", async () => {
    const date = nextDate();
    const before = await bookingCount();
    const squat = await book(pk, "integration-order-2", at("09:00", date));
    expect(squat.status).toBe(201);
    const mine = await book(salon.ws.api, "integration-order-2", at("09:00", date));
    expect(mine.status, JSON.stringify(mine.body)).toBe(201);
    expect(mine.headers.get("idempotent-replayed")).toBeNull();
    expect(mine.body.uuid).not.toBe(squat.body.uuid);
    expect(await bookingCount()).toBe(before + 2);
  });

  it("the reverse: a secret key's K never answers or blocks a publishable key's K", async () => {
    const date = nextDate();
    const first = await book(salon.ws.api, "widget-k", at("09:00", date));
    expect(first.status).toBe(201);
    const other = await book(pk, "widget-k", at("13:00", date), "+49 151 10000003");
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    expect(other.headers.get("idempotent-replayed")).toBeNull();
    expect(other.body.uuid).not.toBe(first.body.uuid);
  });

  it("two secret keys of one workspace keep their keys apart too", async () => {
    const date = nextDate();
    const a = await book(salon.ws.api, "shared-k", at("09:00", date));
    const b = await book(secondSecret, "shared-k", at("10:00", date));
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.headers.get("idempotent-replayed")).toBeNull();
    expect(b.body.uuid).not.toBe(a.body.uuid);
  });

  it("concurrent requests with the same key from two API keys both run, again and again", async () => {
    for (let round = 0; round < 4; round++) {
      const date = nextDate();
      const key = `race-${round}`;
      const before = await bookingCount();
      // A visitor per round: a visitor's bookings a day are capped, which is not what is tested here.
      const visitor: Client = (path, sent = {}) =>
        pk(path, {
          ...sent,
          headers: { ...sent.headers, "cf-connecting-ip": `192.0.2.${round + 1}` },
        });
      const [stranger, staff] = await Promise.all([
        book(visitor, key, at("09:00", date), "+49 151 10000004"),
        book(salon.ws.api, key, at("12:00", date)),
      ]);
      expect(stranger.status, JSON.stringify(stranger.body)).toBe(201);
      expect(staff.status, JSON.stringify(staff.body)).toBe(201);
      expect(staff.headers.get("idempotent-replayed")).toBeNull();
      expect(stranger.headers.get("idempotent-replayed")).toBeNull();
      expect(staff.body.uuid).not.toBe(stranger.body.uuid);
      expect(await bookingCount()).toBe(before + 2);
    }
  });
});
