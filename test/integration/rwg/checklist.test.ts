import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { admin, BASE } from "../../helpers/http";
import { expectProtoJson } from "../../helpers/proto-json";
import {
  basic,
  googleSalon,
  googleUser,
  RWG,
  type GoogleClient,
  type RwgCredentials,
} from "../../helpers/rwg";
import type { Salon } from "../../helpers/salon";

/**
 * Google's booking server test utility (`-all_tests`), step by step as it runs them: slots
 * from the salon's availability feed, HealthCheck, CheckAvailability, CreateBooking (and its
 * replay), ListBookings, GetBookingStatus, Rescheduling, then cancelling every booking. Where
 * the utility prints "<Method> Errors: 0 out of 10", the counts are asserted.
 */

const TESTS = 10;

interface FeedSlot {
  merchant_id: string;
  service_id: string;
  start_sec: string;
  duration_sec: string;
  spots_open: string;
}

let salon: Salon & { google: GoogleClient; creds: RwgCredentials };
beforeAll(async () => {
  salon = await googleSalon();
});

/** The request as Google sends it, the answer's text as written (a replay is compared byte for byte). */
async function rawCall(method: string, body: unknown) {
  const res = await exports.default.fetch(
    new Request(`${BASE}${RWG}/${method}`, {
      method: "POST",
      headers: { authorization: basic(salon.creds), "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
  return { status: res.status, text: await res.text() };
}

/**
 * The slots the utility tests: open haircut starts from the availability feed, two hours
 * apart so that no booking of the run takes another tested slot's staff.
 */
async function feedSlots(count: number): Promise<FeedSlot[]> {
  const feed = await admin(`/workspaces/${salon.ws.id}/rwg/feeds/availability.json`);
  expect(feed.status, JSON.stringify(feed.body)).toBe(200);
  const all = (feed.body.service_availability as { availability: FeedSlot[] }[])
    .flatMap((s) => s.availability)
    // From tomorrow on: no start passes its notice while the run goes on.
    .filter((a) => Number(a.start_sec) * 1000 > Date.now() + 86_400_000)
    .filter((a) => a.service_id === salon.cut.uuid && Number(a.spots_open) > 0)
    .sort((a, b) => Number(a.start_sec) - Number(b.start_sec));
  const picked: FeedSlot[] = [];
  for (const a of all) {
    const last = picked.at(-1);
    if (!last || Number(a.start_sec) >= Number(last.start_sec) + 7200) picked.push(a);
    if (picked.length === count) break;
  }
  expect(picked).toHaveLength(count);
  return picked;
}

const slotOf = (a: FeedSlot) => ({
  merchant_id: a.merchant_id,
  service_id: a.service_id,
  start_sec: a.start_sec,
  duration_sec: a.duration_sec,
});

const countOf = async (a: FeedSlot) => {
  const res = await salon.google("CheckAvailability", { slot: slotOf(a) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expectProtoJson("CheckAvailabilityResponse", res.body);
  return res.body.count_available as number;
};

describe("Google's booking server test utility, all tests", () => {
  it("passes every step with 0 errors out of 10", async () => {
    const user = googleUser("9876543210123456789", "+49 151 55501234");
    const slots = await feedSlots(TESTS + 1);
    const tested = slots.slice(0, TESTS);
    const spare = slots[TESTS] as FeedSlot;

    // HealthCheck
    expect((await salon.google("HealthCheck")).status).toBe(200);

    // CheckAvailability: every tested slot can be booked.
    const before = [];
    for (const a of tested) before.push(await countOf(a));
    expect(before.filter((n) => n <= 0)).toHaveLength(0);
    expect(before).toEqual(tested.map((a) => Number(a.spots_open)));

    // CreateBooking with new tokens, each replayed with its token.
    const made: { id: string; token: string; text: string; booking: Record<string, unknown> }[] =
      [];
    let createErrors = 0;
    for (const a of tested) {
      const token = crypto.randomUUID();
      const req = { slot: slotOf(a), user_information: user, idempotency_token: token };
      const res = await rawCall("CreateBooking", req);
      const body = JSON.parse(res.text);
      if (res.status !== 200 || !body.booking || body.booking.status !== "CONFIRMED") {
        createErrors++;
        continue;
      }
      expectProtoJson("CreateBookingResponse", body);
      expect(body.booking.slot).toMatchObject(slotOf(a));
      expect(body.booking.user_information).toEqual(user);
      made.push({ id: body.booking.booking_id, token, text: res.text, booking: body.booking });
      const replay = await rawCall("CreateBooking", req);
      expect(replay.status).toBe(200);
      expect(replay.text).toBe(res.text);
    }
    expect(createErrors, "CreateBooking Errors").toBe(0);
    expect(new Set(made.map((m) => m.id)).size).toBe(TESTS);

    // The booked slots show one booking less.
    for (const [i, a] of tested.entries()) expect(await countOf(a)).toBe((before[i] as number) - 1);

    // ListBookings of the test user: all of them.
    const listed = await salon.google("ListBookings", { user_id: user.user_id });
    expect(listed.status).toBe(200);
    expectProtoJson("ListBookingsResponse", listed.body);
    expect(listed.body.bookings).toHaveLength(TESTS);
    const byId = new Map(
      listed.body.bookings.map((b: { booking_id: string }) => [b.booking_id, b]),
    );
    for (const m of made) expect(byId.get(m.id)).toEqual(m.booking);

    // GetBookingStatus: each CONFIRMED.
    let statusErrors = 0;
    for (const m of made) {
      const res = await salon.google("GetBookingStatus", { booking_id: m.id });
      expectProtoJson("GetBookingStatusResponse", res.body);
      if (res.status !== 200 || res.body.booking_status !== "CONFIRMED") statusErrors++;
    }
    expect(statusErrors, "GetBookingStatus Errors").toBe(0);

    // Rescheduling: the first booking to the spare slot.
    const first = made[0] as (typeof made)[number];
    const firstSlot = tested[0] as FeedSlot;
    const spareBefore = await countOf(spare);
    const moved = await salon.google("UpdateBooking", {
      booking: { booking_id: first.id, slot: slotOf(spare) },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expectProtoJson("UpdateBookingResponse", moved.body);
    expect(moved.body.booking).toMatchObject({
      booking_id: first.id,
      status: "CONFIRMED",
      slot: slotOf(spare),
    });
    expect(await countOf(spare)).toBe(spareBefore - 1);
    expect(await countOf(firstSlot)).toBe(before[0]);
    const movedStatus = await salon.google("GetBookingStatus", { booking_id: first.id });
    expect(movedStatus.body.booking_status).toBe("CONFIRMED");

    // Cancel all, then once more: already cancelled.
    let cancelErrors = 0;
    for (const m of made) {
      const res = await salon.google("UpdateBooking", {
        booking: { booking_id: m.id, status: "CANCELED" },
      });
      expectProtoJson("UpdateBookingResponse", res.body);
      if (res.status !== 200 || res.body.booking?.status !== "CANCELED") cancelErrors++;
    }
    expect(cancelErrors, "UpdateBooking (cancel) Errors").toBe(0);
    for (const m of made) {
      const res = await salon.google("UpdateBooking", {
        booking: { booking_id: m.id, status: "CANCELED" },
      });
      expect(res.status).toBe(200);
      expect(res.body.booking_failure?.cause).toBe("BOOKING_ALREADY_CANCELLED");
      const status = await salon.google("GetBookingStatus", { booking_id: m.id });
      expect(status.body.booking_status).toBe("CANCELED");
    }
    // Every tested slot is as open as before the run.
    for (const [i, a] of tested.entries()) expect(await countOf(a)).toBe(before[i]);
    expect(await countOf(spare)).toBe(spareBefore);
  });
});
