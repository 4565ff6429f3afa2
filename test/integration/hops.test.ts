import { env } from "cloudflare:workers";
import { calendarFor } from "../../src/calendar/client";
import { failpoints, rendezvous } from "../../src/platform/failpoints";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { expectInSync, expectUnitsInSync } from "../helpers/calendar";
import { admin, client, d1RoundTrips } from "../helpers/http";
import { createPublishableKey } from "../helpers/keys";
import { createResource } from "../helpers/resources";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

/**
 * Latency is counted in sequential hops (Server-Timing): calls in flight
 * together count once. A read is one D1 hop, authentication included, for a
 * workspace the isolate knows; the key is still checked on every request, so
 * a bad key gets nothing and writes nothing.
 */

const calendarCalls = (headers: Headers) => {
  const match = /calendar;dur=[\d.]+;desc="(\d+) calls"/.exec(headers.get("server-timing") ?? "");
  if (!match?.[1]) throw new Error(`no calendar metric: ${headers.get("server-timing")}`);
  return Number(match[1]);
};

const hops = (res: { headers: Headers }) => ({
  d1: d1RoundTrips(res.headers),
  calendar: calendarCalls(res.headers),
});

let salon: Salon;
let booking: { uuid: string };

/** The body of a haircut with staffer `n` at `hhmm` on the salon's Monday. */
const haircut = (n: number, hhmm: string) => ({
  location_uuid: salon.location.uuid,
  service_uuid: salon.cut.uuid,
  staffer_uuid: salon.staffers[n]?.uuid,
  reserved_on: at(hhmm),
  ...customer(),
});

beforeAll(async () => {
  salon = await createSalon(2);
  const res = await salon.ws.api("/bookings", {
    method: "POST",
    body: haircut(0, "09:00"),
  });
  expect(res.status).toBe(201);
  booking = res.body;
});

/** Rows of `table` in the salon's workspace. */
const rows = async (table: "services" | "bookings") =>
  (
    await everyShard
      .prepare(`SELECT count(*) AS n FROM ${table} WHERE workspace_id = ?`)
      .bind(salon.ws.id)
      .first<{ n: number }>()
  )?.n ?? 0;

describe("reads: one D1 hop, the key check included", () => {
  const reads = () => [
    "/services",
    "/locations",
    `/services/${salon.cut.uuid}`,
    `/bookings/${booking.uuid}`,
    "/bookings?per_page=5",
    `/locations/${salon.location.uuid}/time-slots?service_uuid=${salon.cut.uuid}&range_start=2030-03-04&range_end=2030-03-08`,
    `/sessions?location_uuid=${salon.location.uuid}&from=2030-03-04T00:00:00Z&to=2030-03-08T00:00:00Z`,
  ];

  it("lists, gets and the time-slot search take exactly 1 D1 round trip and no calendar call", async () => {
    for (const path of reads()) {
      const res = await salon.ws.api(path);
      expect(res.status, path).toBe(200);
      expect(hops(res), path).toEqual({ d1: 1, calendar: 0 });
    }
  });

  it("cart next is one hop too", async () => {
    const res = await salon.ws.api(`/locations/${salon.location.uuid}/time-slots/cart/next`, {
      method: "POST",
      body: { services: [{ service_uuid: salon.cut.uuid }] },
    });
    expect(res.status).toBe(200);
    expect(hops(res)).toEqual({ d1: 1, calendar: 0 });
  });

  it("refuses a key revoked a moment ago on the very next request, returning none of the data", async () => {
    const issued = await admin(`/workspaces/${salon.ws.id}/api-keys`, { method: "POST" });
    const api = client(salon.ws.id, issued.body.api_key);
    expect((await api(`/bookings/${booking.uuid}`)).status).toBe(200);
    const revoked = await admin(`/workspaces/${salon.ws.id}/api-keys/${issued.body.id}`, {
      method: "DELETE",
    });
    expect(revoked.status).toBe(204);
    const res = await api(`/bookings/${booking.uuid}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      message: "The API key is invalid for this workspace.",
      code: "unauthenticated",
    });
    expect(JSON.stringify(res.body)).not.toContain(booking.uuid);
  });

  it("answers a wrong secret for a known workspace with the same 401, never the handler's 404", async () => {
    const forged = salon.ws.apiKey.slice(0, -4) + "AAAA";
    const api = client(salon.ws.id, forged);
    for (const path of [`/bookings/${crypto.randomUUID()}`, "/services", "/customers"]) {
      const res = await api(path);
      expect(res.status, path).toBe(401);
      expect(res.body.code).toBe("unauthenticated");
    }
  });
});

describe("nothing is written for a key that fails its check", () => {
  it("a wrong secret creates no service, books nothing and claims no calendar time", async () => {
    const forged = client(salon.ws.id, salon.ws.apiKey.slice(0, -4) + "AAAA");
    const services = await rows("services");
    const bookings = await rows("bookings");
    const service = await forged("/services", {
      method: "POST",
      body: { name: "Forged", duration: 30, price: 100 },
    });
    expect(service.status).toBe(401);
    const res = await forged("/bookings", {
      method: "POST",
      body: haircut(1, "11:00"),
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("unauthenticated");
    expect(await rows("services")).toBe(services);
    expect(await rows("bookings")).toBe(bookings);
    // No hold was left behind: the slot is bookable with the real key at once.
    const real = await salon.ws.api("/bookings", {
      method: "POST",
      body: haircut(1, "11:00"),
    });
    expect(real.status).toBe(201);
    await expectInSync(
      salon.ws.id,
      salon.staffers.map((s) => s.uuid),
    );
  });

  it("a wrong secret sets no pending event moving, and its answer carries no timings", async () => {
    // Events the workspace's real writes left pending (as if their dispatch had not run yet).
    await everyShard
      .prepare("UPDATE events SET claimed_at = NULL, dispatched_at = NULL WHERE workspace_id = ?")
      .bind(salon.ws.id)
      .run();
    const pending = async () =>
      (
        await everyShard
          .prepare("SELECT count(*) AS n FROM events WHERE workspace_id = ? AND claimed_at IS NULL")
          .bind(salon.ws.id)
          .first<{ n: number }>()
      )?.n ?? 0;
    const before = await pending();
    expect(before).toBeGreaterThan(0);
    // The workspace is known to this isolate (it booked above): the key is checked alongside.
    // A POST that only reads, so the handler itself answers 200 before the check's 401 replaces it.
    const forged = client(salon.ws.id, `${salon.ws.apiKey.slice(0, -4)}AAAA`);
    const res = await forged(`/locations/${salon.location.uuid}/time-slots/cart/next`, {
      method: "POST",
      body: { services: [{ service_uuid: salon.cut.uuid }] },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("server-timing")).toBeNull();
    // Time for any work the request left behind (waitUntil) to run: it dispatched nothing.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await pending()).toBe(before);
  });

  it("a publishable key from a foreign origin books nothing", async () => {
    const pk = await createPublishableKey(salon.ws, ["https://salon.example"]);
    // Warm: the workspace is known, so the check runs alongside the request.
    expect((await pk.api("/services")).status).toBe(200);
    const bookings = await rows("bookings");
    const res = await pk.api("/bookings", {
      method: "POST",
      headers: { origin: "https://evil.example" },
      body: haircut(1, "13:00"),
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("origin_not_allowed");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(await rows("bookings")).toBe(bookings);
    await expectInSync(
      salon.ws.id,
      salon.staffers.map((s) => s.uuid),
    );
  });
});

describe("writes: claims in parallel, one batch, the confirm after the answer", () => {
  it("a booking is one read, one claim and one write: 2 D1 round trips and 1 calendar call", async () => {
    const res = await salon.ws.api("/bookings", { method: "POST", body: haircut(0, "15:00") });
    expect(res.status).toBe(201);
    expect(hops(res)).toEqual({ d1: 2, calendar: 1 });
    await expectInSync(
      salon.ws.id,
      salon.staffers.map((s) => s.uuid),
    );
  });

  it("every lifecycle write reads once, claims once and writes once", async () => {
    const put = (path: string, body: unknown) => salon.ws.api(path, { method: "PUT", body });
    const made = await salon.ws.api("/bookings", { method: "POST", body: haircut(0, "12:00") });
    expect(made.status).toBe(201);
    const id = made.body.uuid as string;
    // Booking and availability in one batch: read, claim, write.
    const moved = await put(`/bookings/${id}/reschedule`, { reserved_on: at("12:30") });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(hops(moved)).toEqual({ d1: 2, calendar: 1 });
    const handed = await put(`/bookings/${id}/staffer`, { staffer_uuid: salon.staffers[1]?.uuid });
    expect(handed.status, JSON.stringify(handed.body)).toBe(200);
    expect(hops(handed)).toEqual({ d1: 2, calendar: 1 });
    const replaced = await put(`/bookings/${id}/services`, { service_uuid: salon.colour.uuid });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(hops(replaced)).toEqual({ d1: 2, calendar: 1 });
    const canceled = await put(`/bookings/${id}/status/cancel`, { cancel_reason: "didnt_come" });
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    expect(hops(canceled)).toEqual({ d1: 2, calendar: 1 });
    await expectInSync(
      salon.ws.id,
      salon.staffers.map((s) => s.uuid),
    );
  });

  it("a booking that needs two resources claims the staffer and both units in the same hop", async () => {
    const room = await createResource(salon.ws, salon.location.uuid, { name: "Hop room" });
    const basin = await createResource(salon.ws, salon.location.uuid, { name: "Hop basin" });
    const svc = await salon.ws.api("/services", {
      method: "POST",
      body: { name: "Spa", duration: 30, price: 100, resource_uuids: [room.uuid, basin.uuid] },
    });
    expect(svc.status).toBe(201);
    const slots = await salon.ws.api(
      `/locations/${salon.location.uuid}/time-slots?service_uuid=${svc.body.uuid}&range_start=2030-03-04&range_end=2030-03-04`,
    );
    expect(hops(slots)).toEqual({ d1: 1, calendar: 0 });
    const res = await salon.ws.api("/bookings", {
      method: "POST",
      body: { ...haircut(1, "16:00"), service_uuid: svc.body.uuid },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(hops(res)).toEqual({ d1: 2, calendar: 1 });
    const moved = await salon.ws.api(`/bookings/${res.body.uuid}/reschedule`, {
      method: "PUT",
      body: { reserved_on: at("16:30") },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(hops(moved)).toEqual({ d1: 2, calendar: 1 });
    await expectUnitsInSync(salon.ws.id, [
      { uuid: room.uuid, quantity: 1 },
      { uuid: basin.uuid, quantity: 1 },
    ]);
  });

  it("a cart for three staffers claims all three calendars in one hop", async () => {
    const three = await createSalon(3);
    // Warm the workspace, so the key check runs alongside.
    expect((await three.ws.api("/services")).status).toBe(200);
    const res = await three.ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: three.location.uuid,
        ...customer(),
        items: [
          {
            datetime_start: at("10:00"),
            services: three.staffers.map((s) => ({
              service_uuid: three.cut.uuid,
              staffer_uuid: s.uuid,
            })),
          },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(hops(res)).toEqual({ d1: 2, calendar: 1 });
    await expectInSync(
      three.ws.id,
      three.staffers.map((s) => s.uuid),
    );
  });

  it("claims split by another write are retried one calendar at a time, so the cart still wins", async () => {
    const two = await createSalon(2);
    // Warm, and prove the slot free: both staffers at 10:00.
    expect((await two.ws.api("/services")).status).toBe(200);
    const [first, second] = two.staffers.map((s) => s.uuid) as [string, string];
    // Another write holds staffer 1 right now (as if it won that calendar of a race).
    const rival = calendarFor(env, two.ws.id, second);
    const start = Date.parse(at("10:00"));
    const held = await rival.claim({
      owner: { workspaceId: two.ws.id, calendarId: second },
      holdId: "rival",
      entries: [
        {
          id: crypto.randomUUID(),
          kind: "booking",
          source: "rival",
          start,
          end: start + 3_600_000,
        },
      ],
      replaces: [],
      checkConflicts: true,
    });
    expect(held).toEqual({ ok: true });
    failpoints.meet("calendar.claims.one_by_one", 2);
    const before = failpoints.hits("calendar.claims.one_by_one");
    const cart = two.ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: two.location.uuid,
        ...customer(),
        items: [first, second].map((staffer) => ({
          datetime_start: at("10:00"),
          services: [{ service_uuid: two.cut.uuid, staffer_uuid: staffer }],
        })),
      },
    });
    // The cart got staffer 0, was refused staffer 1, gave staffer 0 back and waits to retry.
    await vi.waitFor(() => expect(failpoints.hits("calendar.claims.one_by_one")).toBe(before + 1));
    // The rival gives up now (its write failed); then the cart's retry goes on and finds both free.
    await rival.release("rival");
    await rendezvous("calendar.claims.one_by_one");
    const res = await cart;
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await expectInSync(two.ws.id, [first, second]);
  });
});
