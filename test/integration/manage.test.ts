import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app/app";
import type { OpenEnv } from "../../src/http/env";
import { manageExpiry, manageToken, manageUrl } from "../../src/bookings/manage-link";
import { signLegacyManageToken, signManageToken } from "../../src/bookings/manage-token";
import { placementOf } from "../../src/db/shards";
import { expectInSync } from "../helpers/calendar";
import { fakeLimiter } from "../helpers/limiter";
import { admin, d1RoundTrips, PUBLIC, type Received, send, type Sent } from "../helpers/http";
import { at, createSalon, customer, type Salon } from "../helpers/salon";

const MIN = 60_000;
const DAY = 86_400_000;
const SECRET = "test-manage-token-secret";

/**
 * A manage call: no key, no Workspace header. Each test uses its own client
 * address, so the per-address limit of one never reaches another.
 */
let addresses = 0;
function visitor() {
  addresses += 1;
  const address = `198.51.100.${addresses}`;
  return (path: string, sent: Sent = {}) =>
    send(`${PUBLIC}/manage/${path}`, {
      ...sent,
      headers: { "cf-connecting-ip": address, ...sent.headers },
    });
}

const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

async function book(salon: Salon, start: string, staffer = 0) {
  const res = await salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      reserved_on: start,
      staffer_uuid: salon.staffers[staffer]?.uuid,
      ...customer(),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uuid: string; customer_uuid: string; start_time: string; end_time: string };
}

async function tokenOf(
  salon: Salon,
  booking: { uuid: string; customer_uuid: string; end_time: string },
) {
  const token = await manageToken(env, {
    id: booking.uuid,
    workspaceId: salon.ws.id,
    customerId: booking.customer_uuid,
    endAt: Date.parse(booking.end_time),
  });
  if (!token) throw new Error("no MANAGE_TOKEN_SECRET in the test bindings");
  return token;
}

const setPolicy = async (salon: Salon, body: Record<string, unknown>) => {
  const res = await admin(`/workspaces/${salon.ws.id}/locations/${salon.location.uuid}`, {
    method: "PATCH",
    body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

/** Offsets putting the deadline a minute past now (inside the window) or a minute ahead. */
const inside = (start: number) => Math.ceil((start - Date.now()) / MIN) + 1;
const outside = (start: number) => Math.floor((start - Date.now()) / MIN) - 1;

let week = 0;
/** 10:00Z on a Monday some weeks from now, each test its own week. */
function nearMonday() {
  week += 1;
  const base = new Date(Date.now() + (7 + week * 7) * DAY);
  const monday = base.getTime() - ((base.getUTCDay() + 6) % 7) * DAY;
  return new Date(monday).toISOString().slice(0, 10);
}

let salon: Salon;
let other: Salon;
beforeAll(async () => {
  [salon, other] = await Promise.all([createSalon(2), createSalon(1)]);
});

describe("the manage link", () => {
  it("is the widget's manage page with a token that expires a day after the booking ends", async () => {
    const booking = await book(salon, at("08:00", "2030-02-04"));
    const url = await manageUrl(env, "https://api.salon.example", {
      id: booking.uuid,
      workspaceId: salon.ws.id,
      customerId: booking.customer_uuid,
      endAt: Date.parse(booking.end_time),
    });
    expect(url).toMatch(/^https:\/\/api\.salon\.example\/widget\/manage\?token=[A-Za-z0-9_-]{71}$/);
    const token = new URL(url ?? "").searchParams.get("token") ?? "";
    const res = await visitor()(token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.manage.expires_at).toBe(iso(Date.parse(booking.end_time) + DAY));
    // The same booking gets the same link: it is a pure function of the booking.
    expect(res.body.manage.token).toBe(token);
    expect(manageExpiry(Date.parse(booking.end_time))).toBe(Date.parse(booking.end_time) + DAY);
  });

  it("shows the booking without any key; a Workspace header or key sent along changes nothing", async () => {
    const booking = await book(salon, at("09:00", "2030-02-05"));
    const token = await tokenOf(salon, booking);
    const call = visitor();
    const bare = await call(token);
    expect(bare.status, JSON.stringify(bare.body)).toBe(200);
    expect(bare.body.booking.uuid).toBe(booking.uuid);
    expect(bare.body.booking.policy).toMatchObject({ is_cancelable: true, is_changeable: true });
    expect(bare.body.location).toMatchObject({
      uuid: salon.location.uuid,
      timezone: "Europe/Berlin",
    });
    expect(bare.body.locale).toEqual(expect.any(String));
    // Its one staffer by first name only: no e-mail, no permissions for the link's holder.
    expect(bare.body.staffers).toEqual([
      { uuid: bare.body.booking.ordered_services[0].staffer_uuid, first_name: expect.any(String) },
    ]);
    expect(bare.body.manage.url).toBe(`http://api.test/widget/manage?token=${token}`);
    // Another workspace's credentials alongside: ignored, the token alone decides.
    const noisy = await call(token, {
      headers: { workspace: other.ws.id, authorization: `Bearer ${other.ws.apiKey}` },
    });
    expect(noisy.status).toBe(200);
    expect(noisy.body.booking.uuid).toBe(booking.uuid);
    const garbage = await call(token, {
      headers: { workspace: "not-a-uuid", authorization: "Bearer nonsense" },
    });
    expect(garbage.status).toBe(200);
  });

  it("answers 404 once the booking is gone from under a valid token", async () => {
    const token = await signManageToken(SECRET, {
      bookingId: crypto.randomUUID(),
      workspaceId: salon.ws.id,
      customerId: crypto.randomUUID(),
    });
    const res = await visitor()(token);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("not_found");
  });
});

describe("a token that is not one this Worker issued", () => {
  let token: string;
  let bookingId: string;
  let customerId: string;
  let end: string;
  beforeAll(async () => {
    const booking = await book(salon, at("10:00", "2030-02-06"));
    bookingId = booking.uuid;
    customerId = booking.customer_uuid;
    end = booking.end_time;
    token = await tokenOf(salon, booking);
  });

  const replaceAt = (text: string, i: number) =>
    text.slice(0, i) + (text[i] === "A" ? "B" : "A") + text.slice(i + 1);

  const refused = async (bad: string) => {
    const call = visitor();
    for (const res of [
      await call(bad),
      await call(`${bad}/time-slots?range_start=2030-02-06&range_end=2030-02-06`),
      await call(`${bad}/cancel`, { method: "POST", body: {} }),
      await call(`${bad}/reschedule`, {
        method: "POST",
        body: { reserved_on: at("12:00", "2030-02-06") },
      }),
    ]) {
      expect(res.status, JSON.stringify(res.body)).toBe(401);
      expect(res.body).toEqual({
        message: "The link is invalid or has expired; ask the salon for a new one.",
        code: "invalid_token",
      });
    }
  };

  it("one character changed in the payload (the booking id) is 401 invalid_token", async () => {
    await refused(replaceAt(token, 5));
  });

  it("one character changed in the signature is 401 invalid_token", async () => {
    await refused(replaceAt(token, 60));
  });

  it("the last character's spare bits changed (same bytes, another spelling) is 401", async () => {
    const last = token.at(-1) ?? "A";
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    // 53 bytes in 71 characters: the last one carries 4 bits of data and 2 spare ones.
    const twin = alphabet[alphabet.indexOf(last) ^ 1] ?? "A";
    await refused(token.slice(0, -1) + twin);
  });

  it("malformed tokens (too short, not base64url, empty-ish) are 401 invalid_token", async () => {
    for (const bad of ["x", token.slice(0, -1), `${token}A`, token.replace(/./, "*"), "%20"]) {
      await refused(bad);
    }
  });

  it("a token signed with another secret is 401 invalid_token", async () => {
    await refused(
      await signManageToken("another-secret-of-16+", {
        bookingId,
        workspaceId: salon.ws.id,
        customerId,
      }),
    );
  });

  it("a token longer than 128 characters is refused by its bound (422)", async () => {
    const res = await visitor()(`${token}${"A".repeat(60)}`);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
  });

  it("a token for another customer of the booking (one it is no longer for) is 401 invalid_token", async () => {
    await refused(
      await signManageToken(SECRET, {
        bookingId,
        workspaceId: salon.ws.id,
        customerId: crypto.randomUUID(),
      }),
    );
  });

  it("links of the layouts issued before (an expiry, a start) open the booking until a day after its current end", async () => {
    for (const version of [1, 2] as const) {
      const legacy = signLegacyManageToken(SECRET, version, {
        bookingId,
        workspaceId: salon.ws.id,
        seconds: Math.ceil(manageExpiry(Date.parse(end)) / 1000),
      });
      const seen = await visitor()(legacy);
      expect(seen.status, JSON.stringify(seen.body)).toBe(200);
      expect(seen.body.booking.uuid).toBe(bookingId);
    }
  });
});

describe("tenancy: the workspace comes from the token", () => {
  it("a token naming another workspace's booking reaches nothing of this one", async () => {
    const mine = await book(salon, at("08:00", "2030-02-11"));
    const theirs = await book(other, at("08:00", "2030-02-11"));
    const call = visitor();
    // Their token with our credentials: still their booking, never ours.
    const theirToken = await tokenOf(other, theirs);
    const seen = await call(theirToken, {
      headers: { workspace: salon.ws.id, authorization: `Bearer ${salon.ws.apiKey}` },
    });
    expect(seen.status).toBe(200);
    expect(seen.body.booking.uuid).toBe(theirs.uuid);
    // A token signed for our booking id in their workspace (what a mix-up could produce):
    // the booking is looked up in the token's workspace only, so it is not found.
    const crossed = await signManageToken(SECRET, {
      bookingId: mine.uuid,
      workspaceId: other.ws.id,
      customerId: mine.customer_uuid,
    });
    expect((await call(crossed)).status).toBe(404);
    const cancel = await call(`${crossed}/cancel`, { method: "POST", body: {} });
    expect(cancel.status).toBe(404);
    const move = await call(`${crossed}/reschedule`, {
      method: "POST",
      body: { reserved_on: at("12:00", "2030-02-11") },
    });
    expect(move.status).toBe(404);
    const slots = await call(`${crossed}/time-slots?range_start=2030-02-11&range_end=2030-02-11`);
    expect(slots.status).toBe(404);
    const still = await salon.ws.api(`/bookings/${mine.uuid}`);
    expect(still.body).toMatchObject({ is_canceled: false, start_time: mine.start_time });
  });
});

describe("GET /manage/{token}/time-slots", () => {
  it("lists starts where the booking fits with its staffer: its own time free, others' busy", async () => {
    // Staff 0 works 08:00Z–17:00Z (09–18 Berlin); the cut takes 45 min + 15 min buffer.
    const date = "2030-02-18";
    const booking = await book(salon, at("10:00", date));
    await book(salon, at("12:00", date)); // someone else's, same staffer
    await book(salon, at("14:00", date), 1); // another staffer's: not in the way
    const res = await visitor()(
      `${await tokenOf(salon, booking)}/time-slots?range_start=${date}&range_end=${date}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.timezone).toBe("Europe/Berlin");
    const starts: string[] = res.body.dates.flatMap((d: { slots: { reserved_on: string }[] }) =>
      d.slots.map((s) => s.reserved_on),
    );
    // Overlapping its own current time is free; its current start is not a move.
    expect(starts).toContain(at("10:30", date));
    expect(starts).toContain(at("09:15", date));
    expect(starts).not.toContain(at("10:00", date));
    // The other booking 12:00–13:00 (with buffer): 11:00 ends at 12:00, 11:15 would collide.
    expect(starts).toContain(at("11:00", date));
    expect(starts).not.toContain(at("11:15", date));
    expect(starts).not.toContain(at("12:00", date));
    expect(starts).not.toContain(at("12:45", date));
    expect(starts).toContain(at("13:00", date));
    // Another staffer's booking is not this booking's concern.
    expect(starts).toContain(at("14:00", date));
    // Working hours: the last start that ends (with its buffer) by 17:00Z.
    expect(starts.at(-1)).toBe(at("16:00", date));
    expect(starts[0]).toBe(at("08:00", date));
    const day = res.body.dates[0];
    expect(day.date).toBe(date);
    expect(day.slots[0]).toMatchObject({ start: "09:00", end: "09:45" });
    // Every listed start is one the reschedule accepts.
    const move = await visitor()(`${await tokenOf(salon, booking)}/reschedule`, {
      method: "POST",
      body: { reserved_on: at("13:00", date) },
    });
    expect(move.status, JSON.stringify(move.body)).toBe(200);
  });

  it("keeps a booking of two services by two staffers in shape: each service's staffer must be free", async () => {
    const date = "2030-02-13";
    // Cut (45 + 15 buffer) by staff 0 at 10:00Z, then colouring (90) by staff 1 at 11:00Z.
    const cart = await salon.ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [
          {
            datetime_start: at("10:00", date),
            services: [
              { service_uuid: salon.cut.uuid, staffer_uuid: salon.staffers[0]?.uuid },
              { service_uuid: salon.colour.uuid, staffer_uuid: salon.staffers[1]?.uuid },
            ],
          },
        ],
        ...customer(),
      },
    });
    expect(cart.status, JSON.stringify(cart.body)).toBe(201);
    const booking = cart.body.bookings[0];
    expect(booking.ordered_services).toHaveLength(2);
    // The view names both of the booking's staffers by first name, and no one else, nothing more.
    const view = await visitor()(await tokenOf(salon, booking));
    expect(view.status, JSON.stringify(view.body)).toBe(200);
    expect(view.body.staffers).toEqual([
      { uuid: salon.staffers[0]?.uuid, first_name: "Staff 0" },
      { uuid: salon.staffers[1]?.uuid, first_name: "Staff 1" },
    ]);
    // Staff 1 is taken 14:00–15:00Z by someone else (a cut with its buffer).
    await book(salon, at("14:00", date), 1);
    const res = await visitor()(
      `${await tokenOf(salon, booking)}/time-slots?range_start=${date}&range_end=${date}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const starts: string[] = res.body.dates.flatMap((d: { slots: { reserved_on: string }[] }) =>
      d.slots.map((s) => s.reserved_on),
    );
    // Colouring would run start+1h .. start+2h30 for staff 1: 11:30 → 12:30–14:00 fits.
    expect(starts).toContain(at("11:30", date));
    // 11:45 → colouring 12:45–14:15 meets the other booking at 14:00: not offered.
    expect(starts).not.toContain(at("11:45", date));
    expect(starts).not.toContain(at("13:00", date));
    // After it: colouring from 15:00 (start 14:00) fits and ends 16:30, by 17:00Z.
    expect(starts).toContain(at("14:00", date));
    expect(starts).not.toContain(at("14:45", date));
    // The whole booking, its end included, fits the day: colouring ends by 17:00Z.
    expect(starts.at(-1)).toBe(at("14:30", date));
    // Staff 0 alone would be free at 11:45; the shape is what refuses it, and so does the move.
    const move = await visitor()(`${await tokenOf(salon, booking)}/reschedule`, {
      method: "POST",
      body: { reserved_on: at("11:45", date) },
    });
    expect(move.status).toBe(409);
    expect(move.body.code).toBe("slot_unavailable");
    const alternatives = move.body.alternatives.map((a: { start: string }) => a.start);
    for (const start of alternatives) expect(starts).toContain(start);
  });

  it("renders on the client's clock with timezone, and bounds the range (62 days)", async () => {
    const booking = await book(salon, at("10:00", "2030-02-19"));
    const token = await tokenOf(salon, booking);
    const call = visitor();
    const ny = await call(
      `${token}/time-slots?range_start=2030-02-19&range_end=2030-02-19&timezone=America/New_York`,
    );
    expect(ny.status).toBe(200);
    expect(ny.body.timezone).toBe("America/New_York");
    expect(ny.body.dates[0].slots[0]).toMatchObject({
      start: "03:00",
      reserved_on: at("08:00", "2030-02-19"),
    });
    const wide = await call(`${token}/time-slots?range_start=2030-02-19&range_end=2030-04-22`);
    expect(wide.status).toBe(422);
    expect(wide.body.errors).toHaveProperty("range_end");
    const edge = await call(`${token}/time-slots?range_start=2030-02-19&range_end=2030-04-21`);
    expect(edge.status).toBe(200);
    const backwards = await call(`${token}/time-slots?range_start=2030-02-20&range_end=2030-02-19`);
    expect(backwards.status).toBe(422);
  });

  it("a canceled booking has no moves: 409 booking_closed", async () => {
    const booking = await book(salon, at("10:00", "2030-02-20"));
    const token = await tokenOf(salon, booking);
    const call = visitor();
    expect((await call(`${token}/cancel`, { method: "POST" })).status).toBe(200);
    const res = await call(`${token}/time-slots?range_start=2030-02-20&range_end=2030-02-20`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("booking_closed");
  });
});

describe("POST /manage/{token}/cancel", () => {
  it("cancels as the customer (canceled_by customer, reason canceled), once: again is 409 booking_closed", async () => {
    const booking = await book(salon, at("10:00", "2030-02-21"));
    const token = await tokenOf(salon, booking);
    const call = visitor();
    const res = await call(`${token}/cancel`, { method: "POST" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      uuid: booking.uuid,
      is_canceled: true,
      canceled_by: "customer",
      cancel_reason: "canceled",
    });
    const again = await call(`${token}/cancel`, { method: "POST", body: {} });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("booking_closed");
    // The link still shows it, canceled.
    const view = await call(token);
    expect(view.body.booking).toMatchObject({ is_canceled: true });
    expect(view.body.booking.policy).toMatchObject({ is_cancelable: false, is_changeable: false });
    await expectInSync(salon.ws.id, [salon.staffers[0]?.uuid ?? ""]);
  });

  it("takes a customer's reason only (postponed, other); a staff reason is 422 on cancel_reason", async () => {
    const booking = await book(salon, at("11:00", "2030-02-21"));
    const token = await tokenOf(salon, booking);
    const call = visitor();
    const staffOnly = await call(`${token}/cancel`, {
      method: "POST",
      body: { cancel_reason: "spam" },
    });
    expect(staffOnly.status).toBe(422);
    expect(staffOnly.body.errors).toHaveProperty("cancel_reason");
    // Staff's fields are not in the link's body: ignored, never written.
    const res = await call(`${token}/cancel`, {
      method: "POST",
      body: {
        cancel_reason: "postponed",
        internal_notes: "x",
        staffer_uuid: salon.staffers[0]?.uuid,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ cancel_reason: "postponed", canceled_by: "customer" });
    const stored = await salon.ws.api(`/bookings/${booking.uuid}`);
    expect(stored.body.canceled_by).toBe("customer");
  });

  it("an Idempotency-Key sent along is not an API key's: the call still works, never a 500", async () => {
    const booking = await book(salon, at("12:00", "2030-02-21"));
    const res = await visitor()(`${await tokenOf(salon, booking)}/cancel`, {
      method: "POST",
      body: {},
      headers: { "idempotency-key": "same-key" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});

describe("the location's policy holds the link's holder", () => {
  let near: Salon;
  beforeAll(async () => {
    near = await createSalon(1);
  });

  it("cancel inside cancellation_offset is 409 policy_window_passed; outside it cancels", async () => {
    const booking = await book(near, `${nearMonday()}T10:00:00Z`);
    const start = Date.parse(booking.start_time);
    const token = await tokenOf(near, booking);
    const call = visitor();
    await setPolicy(near, { cancellation_offset: inside(start), cancellation_text: "Call us." });
    const view = await call(token);
    expect(view.body.booking.policy.is_cancelable).toBe(false);
    const refused = await call(`${token}/cancel`, { method: "POST" });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("policy_window_passed");
    expect(refused.body.message).toContain("Call us.");
    await setPolicy(near, { cancellation_offset: outside(start) });
    const done = await call(`${token}/cancel`, { method: "POST" });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
  });

  it("reschedule and its time-slots inside change_offset are 409 policy_window_passed", async () => {
    const booking = await book(near, `${nearMonday()}T10:00:00Z`);
    const start = Date.parse(booking.start_time);
    const token = await tokenOf(near, booking);
    const call = visitor();
    const date = booking.start_time.slice(0, 10);
    await setPolicy(near, { change_offset: inside(start), cancellation_offset: 0 });
    const move = await call(`${token}/reschedule`, {
      method: "POST",
      body: { reserved_on: iso(start + 2 * 60 * MIN) },
    });
    expect(move.status).toBe(409);
    expect(move.body.code).toBe("policy_window_passed");
    const slots = await call(`${token}/time-slots?range_start=${date}&range_end=${date}`);
    expect(slots.status).toBe(409);
    expect(slots.body.code).toBe("policy_window_passed");
    await setPolicy(near, { change_offset: outside(start) });
    const moved = await call(`${token}/reschedule`, {
      method: "POST",
      body: { reserved_on: iso(start + 2 * 60 * MIN) },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.start_time).toBe(iso(start + 2 * 60 * MIN));
    await setPolicy(near, { change_offset: 0 });
  });
});

describe("POST /manage/{token}/reschedule", () => {
  it("moves the booking; a taken time is 409 slot_unavailable with alternatives", async () => {
    const date = "2030-02-25";
    const booking = await book(salon, at("10:00", date));
    await book(salon, at("14:00", date));
    const token = await tokenOf(salon, booking);
    const call = visitor();
    const taken = await call(`${token}/reschedule`, {
      method: "POST",
      body: { reserved_on: at("14:00", date) },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe("slot_unavailable");
    expect(taken.body.alternatives.length).toBeGreaterThan(0);
    const outsideHours = await call(`${token}/reschedule`, {
      method: "POST",
      body: { reserved_on: at("20:00", date) },
    });
    expect(outsideHours.status).toBe(422);
    expect(outsideHours.body.errors).toHaveProperty("reserved_on");
    const moved = await call(`${token}/reschedule`, {
      method: "POST",
      body: { reserved_on: at("10:30", date) },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ uuid: booking.uuid, start_time: at("10:30", date) });
    // The link used still opens the booking, at its new time; its expiry follows the new end.
    const after = await call(token);
    expect(after.status).toBe(200);
    expect(after.body.booking.start_time).toBe(at("10:30", date));
    expect(moved.body.manage.expires_at).toBe(iso(Date.parse(moved.body.end_time) + DAY));
    const view = await call(moved.body.manage.token);
    expect(view.status).toBe(200);
    expect(view.body.manage).toEqual(moved.body.manage);
    await expectInSync(salon.ws.id, [salon.staffers[0]?.uuid ?? ""]);
  });

  it("two concurrent reschedules through the link end as one order of the two", async () => {
    const date = "2030-02-26";
    const booking = await book(salon, at("10:00", date));
    const token = await tokenOf(salon, booking);
    const targets = [at("13:00", date), at("15:00", date)];
    const results = await Promise.all(
      targets.map((reserved_on) =>
        visitor()(`${token}/reschedule`, { method: "POST", body: { reserved_on } }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(
      statuses.every((s) => s === 200 || s === 409),
      JSON.stringify(statuses),
    ).toBe(true);
    expect(statuses).toContain(200);
    // One that lost reads again and moves the booking once more, or meets a taken time.
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(["booking_changed", "slot_unavailable"]).toContain(r.body.code);
    }
    const final = await salon.ws.api(`/bookings/${booking.uuid}`);
    expect(targets).toContain(final.body.start_time);
    await expectInSync(salon.ws.id, [salon.staffers[0]?.uuid ?? ""]);
  });
});

describe("hostile repetition", () => {
  /** The whole app in process, with the manage limiter replaced. */
  function appWith(bindings: Partial<OpenEnv["Bindings"]>) {
    const app = createApp();
    return async (
      path: string,
      address: string,
      body?: unknown,
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
    ): Promise<Received<any>> => {
      const res = await app.request(
        `${PUBLIC}/manage/${path}`,
        body === undefined
          ? { headers: { "cf-connecting-ip": address } }
          : {
              method: "POST",
              headers: { "cf-connecting-ip": address, "content-type": "application/json" },
              body: JSON.stringify(body),
            },
        { ...env, ...bindings },
      );
      return { status: res.status, headers: res.headers, body: await res.json() };
    };
  }

  it("counts every manage call per client address before the token is looked at: 429 with Retry-After", async () => {
    const { limiter, keys } = fakeLimiter(5);
    const call = appWith({ MANAGE_RATE_LIMIT: limiter });
    const booking = await book(salon, at("10:00", "2030-02-27"));
    const token = await tokenOf(salon, booking);
    const answers: Received[] = [];
    for (let i = 0; i < 5; i++)
      answers.push(await call(i % 2 ? token : `guess${i}`, "203.0.113.50"));
    expect(answers.map((a) => a.status)).toEqual([401, 200, 401, 200, 401]);
    const limited = await call(token, "203.0.113.50");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("10");
    expect(limited.body).toEqual({
      message: "Too many requests; slow down and retry later.",
      code: "rate_limited",
    });
    // Another address is another bucket; an IPv6 client counts as its /64.
    expect((await call(token, "203.0.113.51")).status).toBe(200);
    expect(keys).toContain("ip:203.0.113.50");
    await call(token, "2001:db8:aa:1::1");
    await call(token, "2001:db8:aa:1:ffff::2");
    expect(keys.filter((k) => k === "ip:2001:db8:aa:1::/64")).toHaveLength(2);
  });

  it("limits a booking's changes through the link per booking, whatever addresses they come from", async () => {
    const { limiter, keys } = fakeLimiter(2);
    const call = appWith({ MANAGE_WRITE_RATE_LIMIT: limiter });
    const booking = await book(salon, at("10:00", "2030-02-14"));
    // Each move answers the link for the new time, which the next one uses.
    let token = await tokenOf(salon, booking);
    const moves = [at("11:00", "2030-02-14"), at("12:00", "2030-02-14"), at("13:00", "2030-02-14")];
    const answers: Received[] = [];
    for (const [i, reserved_on] of moves.entries()) {
      const answer = await call(`${token}/reschedule`, `203.0.113.${60 + i}`, { reserved_on });
      answers.push(answer);
      if (answer.status === 200) token = answer.body.manage.token;
    }
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
    expect(answers[2]?.headers.get("retry-after")).toBe("60");
    expect(keys).toEqual([
      `booking:${booking.uuid}`,
      `booking:${booking.uuid}`,
      `booking:${booking.uuid}`,
    ]);
    // The limited change changed nothing; reads are not counted against the booking.
    const seen = await call(token, "203.0.113.70");
    expect(seen.status).toBe(200);
    expect(seen.body.booking.start_time).toBe(at("12:00", "2030-02-14"));
    expect((await call(`${token}/cancel`, "203.0.113.71", {})).status).toBe(429);
    // A refused token never reaches the per-booking count.
    expect((await call(`A${token.slice(1, -1)}B/cancel`, "203.0.113.72", {})).status).toBe(401);
    expect(keys).toHaveLength(4);
  });

  it("a script hammering made-up tokens is stopped by the real limiter", async () => {
    const call = appWith({});
    let allowed = 0;
    let limited: Received | undefined;
    // 120 a minute in the test configuration; a window boundary may let up to twice through.
    for (let round = 0; round < 6 && !limited; round++) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => call(`guess-${round}-${i}`, "203.0.113.99")),
      );
      allowed += answers.filter((a) => a.status !== 429).length;
      limited = answers.find((a) => a.status === 429);
      for (const a of answers.filter((x) => x.status !== 429)) expect(a.status).toBe(401);
    }
    expect(limited?.status).toBe(429);
    expect(allowed).toBeGreaterThanOrEqual(120);
    expect(allowed).toBeLessThanOrEqual(240);
  });
});

describe("round trips", () => {
  it("a refused token costs no D1 query; the view and the slot search one round trip each", async () => {
    const booking = await book(salon, at("10:00", "2030-02-28"));
    const token = await tokenOf(salon, booking);
    const call = visitor();
    expect(d1RoundTrips((await call(`x${token.slice(1)}`)).headers)).toBe(0);
    // The isolate remembers the workspace's shard (30 s): a cold one reads the directory first,
    // one round trip more (test/integration/shards-keyless-routes.test.ts).
    await placementOf(env, salon.ws.id);
    const view = await call(token);
    expect(view.status).toBe(200);
    expect(d1RoundTrips(view.headers)).toBe(1);
    const slots = await call(`${token}/time-slots?range_start=2030-02-28&range_end=2030-03-06`);
    expect(slots.status).toBe(200);
    expect(d1RoundTrips(slots.headers)).toBe(1);
    // A write: the workspace's settings, then the change's read and write batches.
    const moved = await call(`${token}/reschedule`, {
      method: "POST",
      body: { reserved_on: at("13:00", "2030-02-28") },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(d1RoundTrips(moved.headers)).toBe(3);
  });
});

describe("the manage routes in the public OpenAPI document", () => {
  it("take no credentials (security: []) and document invalid_token", async () => {
    const doc = await send(`${PUBLIC}/openapi.json`);
    for (const [path, method] of [
      ["/manage/{token}", "get"],
      ["/manage/{token}/time-slots", "get"],
      ["/manage/{token}/cancel", "post"],
      ["/manage/{token}/reschedule", "post"],
    ] as const) {
      const op = doc.body.paths[path][method];
      expect(op.security, path).toEqual([]);
      expect(op.responses["401"].description).toContain("invalid_token");
      expect(op.responses["429"]).toBeDefined();
    }
  });
});
