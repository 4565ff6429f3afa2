import { beforeAll, describe, expect, it } from "vitest";
import { everyShard } from "../../helpers/every-shard";
import { expectProtoJson } from "../../helpers/proto-json";
import { googleSalon, googleUser, type GoogleClient, type RwgCredentials } from "../../helpers/rwg";
import { at, customer, type Salon } from "../../helpers/salon";
import { stafferOf, bookThroughGoogle, cutStarts, deskCancel } from "../../helpers/rwg-booked";

let salon: Salon & { google: GoogleClient; creds: RwgCredentials };
let other: Salon & { google: GoogleClient };
beforeAll(async () => {
  [salon, other] = await Promise.all([googleSalon(), googleSalon()]);
});

let week = 0;
const nextDay = () =>
  `2030-04-${String(1 + 7 * Math.floor(week / 5) + (week++ % 5)).padStart(2, "0")}`;

const statusOf = (s: { google: GoogleClient }, id: string) =>
  s.google("GetBookingStatus", { booking_id: id });

describe("GetBookingStatus", () => {
  it("answers all three fields; a desk cancel is CANCELED, a no-show NO_SHOW or NO_SHOW_PENALIZED", async () => {
    const day = nextDay();
    const [a, b, c] = [
      await bookThroughGoogle(salon, at("08:00", day)),
      await bookThroughGoogle(salon, at("10:00", day)),
      await bookThroughGoogle(salon, at("12:00", day)),
    ];
    const confirmed = await statusOf(salon, a.id);
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body).toEqual({
      booking_id: a.id,
      booking_status: "CONFIRMED",
      prepayment_status: "PREPAYMENT_NOT_PROVIDED",
    });
    expect((await deskCancel(salon, a.id)).status).toBe(200);
    expect((await deskCancel(salon, b.id, { cancel_reason: "didnt_come" })).status).toBe(200);
    const penalized = await deskCancel(salon, c.id, {
      cancel_reason: "didnt_come",
      charge_fee: true,
    });
    expect(penalized.status, JSON.stringify(penalized.body)).toBe(200);
    const seen = await Promise.all([a, b, c].map((x) => statusOf(salon, x.id)));
    expect(seen.map((r) => r.body.booking_status)).toEqual([
      "CANCELED",
      "NO_SHOW",
      "NO_SHOW_PENALIZED",
    ]);
    for (const r of seen) {
      expect(r.body.prepayment_status).toBe("PREPAYMENT_NOT_PROVIDED");
      expectProtoJson("GetBookingStatusResponse", r.body);
    }
  });

  it("answers 400 alike for an unknown booking, one made elsewhere and another workspace's", async () => {
    const day = nextDay();
    const mine = await bookThroughGoogle(salon, at("08:00", day));
    const desk = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: at("10:00", day),
        ...customer(),
      },
    });
    expect(desk.status, JSON.stringify(desk.body)).toBe(201);
    const answers = [
      await statusOf(salon, crypto.randomUUID()),
      await statusOf(salon, desk.body.uuid),
      await statusOf(other, mine.id),
    ];
    for (const r of answers) {
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body).toEqual(answers[0]?.body);
      expect(r.body.code).toBe("invalid_argument");
    }
    for (const body of [{}, { booking_id: "" }, { booking_id: 7 }]) {
      const r = await salon.google("GetBookingStatus", body);
      expect(r.status, JSON.stringify([body, r.body])).toBe(400);
      expect(r.body.code).toBe("invalid_argument");
    }
  });

  it("keeps another workspace's credentials from cancelling or moving this one's bookings (400, nothing changes)", async () => {
    const day = nextDay();
    const staff = stafferOf(salon, 0);
    const mine = await bookThroughGoogle(salon, at("08:00", day), { staff });
    const tries = [
      { booking: { booking_id: mine.id, status: "CANCELED" } },
      {
        booking: {
          booking_id: mine.id,
          slot: { start_sec: String(Date.parse(at("10:00", day)) / 1000) },
        },
      },
    ];
    for (const body of tries) {
      const r = await other.google("UpdateBooking", body);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.code).toBe("invalid_argument");
    }
    expect((await statusOf(salon, mine.id)).body.booking_status).toBe("CONFIRMED");
    const starts = await cutStarts(salon, day, staff);
    // April in Berlin is UTC+2: 08:00Z is 10:00 there.
    expect(starts.has("10:00")).toBe(false);
    expect(starts.get("12:00")).toBe(1);
    // Nor can the other workspace's user list them.
    const listed = await other.google("ListBookings", { user_id: googleUser().user_id });
    expect(listed.body).toEqual({ bookings: [] });
  });
});

describe("ListBookings", () => {
  it("lists every booking of one Google user with this workspace, newest first, as Booking messages", async () => {
    const day = nextDay();
    const user = googleUser("3333333333", "+49 151 33333333");
    const someoneElse = googleUser("4444444444", "+49 151 44444444");
    const first = await bookThroughGoogle(salon, at("08:00", day), { user });
    const second = await bookThroughGoogle(salon, at("10:00", day), { user });
    const third = await bookThroughGoogle(salon, at("12:00", day), { user });
    const made = [first, second, third];
    await bookThroughGoogle(salon, at("14:00", day), { user: someoneElse });
    expect((await deskCancel(salon, second.id)).status).toBe(200);

    const res = await salon.google("ListBookings", { user_id: user.user_id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectProtoJson("ListBookingsResponse", res.body);
    const ids = res.body.bookings.map((b: { booking_id: string }) => b.booking_id);
    expect(new Set(ids)).toEqual(new Set(made.map((m) => m.id)));
    expect(res.body.bookings).toHaveLength(3);
    const byId = new Map(res.body.bookings.map((b: { booking_id: string }) => [b.booking_id, b]));
    expect(byId.get(first.id)).toEqual(first.booking);
    expect(byId.get(second.id)).toEqual({ ...second.booking, status: "CANCELED" });
    // Newest first: created in that order (same millisecond ties broken by id).
    const created = await everyShard
      .prepare(
        `SELECT booking_id FROM rwg_bookings WHERE user_id = ? AND workspace_id = ? ORDER BY created_at DESC, booking_id ASC`,
      )
      .bind(user.user_id, salon.ws.id)
      .all<{ booking_id: string }>();
    expect(ids).toEqual(created.results.map((r) => r.booking_id));

    const lower = await salon.google("ListBookings", { userId: someoneElse.user_id });
    expect(lower.body.bookings).toHaveLength(1);
  });

  it("answers an unknown user an empty list (200) and a body without a user 400", async () => {
    const none = await salon.google("ListBookings", { user_id: "no-such-user" });
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ bookings: [] });
    expectProtoJson("ListBookingsResponse", none.body);
    for (const body of [{}, { user_id: 5 }]) {
      const r = await salon.google("ListBookings", body);
      expect(r.status, JSON.stringify([body, r.body])).toBe(400);
      expect(r.body.code).toBe("invalid_argument");
    }
    const notJson = await salon.google("ListBookings", "not an object");
    expect(notJson.status).toBe(400);
    expect(notJson.body.code).toBe("invalid_json");
  });
});
