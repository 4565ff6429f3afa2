import { describe, expect, it } from "vitest";
import { everyShard } from "../../helpers/every-shard";
import { googleSalon, googleUser, sec } from "../../helpers/rwg";
import { bookThroughGoogle, cutSlot } from "../../helpers/rwg-booked";
import { at } from "../../helpers/salon";

/**
 * Starts Google may send that no calendar could hold: an int64 past what a `Date` holds is
 * a 400 (the wire's bound), and a start past the horizon the availability methods search is
 * SLOT_UNAVAILABLE before any booking, in CreateBooking as in UpdateBooking's move; never a 500.
 */
const YEAR_MS = 366 * 86_400_000;
// A whole hour, as Google sends starts.
const farAhead = new Date(
  Math.floor((Date.now() + 11 * YEAR_MS) / 3_600_000) * 3_600_000,
).toISOString();
// The largest start (seconds) the wire accepts: 8.64e12 s, the last second a Date holds.
const LAST_DATE_SEC = "8640000000000";

const createWith = (
  salon: Awaited<ReturnType<typeof googleSalon>>,
  startSec: string,
  token = crypto.randomUUID(),
) => ({
  slot: {
    merchant_id: salon.location.uuid,
    service_id: salon.cut.uuid,
    start_sec: startSec,
    duration_sec: "2700",
  },
  user_information: googleUser(),
  idempotency_token: token,
});

const bookings = async (workspaceId: string) =>
  (
    await everyShard
      .prepare("select count(*) as n from bookings where workspace_id = ?")
      .bind(workspaceId)
      .first<{ n: number }>()
  )?.n ?? 0;

describe("Reserve with Google: starts beyond the horizon", () => {
  it("CreateBooking: 400 past a Date, SLOT_UNAVAILABLE past the horizon, and nothing booked or claimed", async () => {
    const salon = await googleSalon(1);
    const tooBig = await salon.google("CreateBooking", createWith(salon, "9000000000000"));
    expect(tooBig.status, JSON.stringify(tooBig.body)).toBe(400);
    for (const start of [LAST_DATE_SEC, sec(farAhead)]) {
      const res = await salon.google("CreateBooking", createWith(salon, start));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.booking_failure?.cause, JSON.stringify(res.body)).toBe("SLOT_UNAVAILABLE");
    }
    expect(await bookings(salon.ws.id)).toBe(0);
    const claims = await everyShard
      .prepare("select count(*) as n from rwg_token_claims where workspace_id = ?")
      .bind(salon.ws.id)
      .first<{ n: number }>();
    expect(claims?.n ?? 0).toBe(0);
  });

  it("UpdateBooking: a move past the horizon is SLOT_UNAVAILABLE and the booking stays", async () => {
    const salon = await googleSalon(1);
    const made = await bookThroughGoogle(salon, at("08:00"));
    const move = (startSec: string) =>
      salon.google("UpdateBooking", {
        booking: {
          booking_id: made.id,
          slot: { ...cutSlot(salon, at("08:00")), start_sec: startSec },
        },
      });
    const tooBig = await move("9000000000000");
    expect(tooBig.status, JSON.stringify(tooBig.body)).toBe(400);
    for (const start of [LAST_DATE_SEC, sec(farAhead)]) {
      const res = await move(start);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.booking_failure?.cause, JSON.stringify(res.body)).toBe("SLOT_UNAVAILABLE");
    }
    const status = await salon.google("GetBookingStatus", { booking_id: made.id });
    expect(status.body.booking_status).toBe("CONFIRMED");
  });
});
