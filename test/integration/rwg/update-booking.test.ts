import { beforeAll, describe, expect, it } from "vitest";
import { admin } from "../../helpers/http";
import { expectProtoJson } from "../../helpers/proto-json";
import { everyShard } from "../../helpers/every-shard";
import { googleSalon, googleUser, sec, type GoogleClient } from "../../helpers/rwg";
import { at, type Salon } from "../../helpers/salon";
import {
  stafferOf,
  bookThroughGoogle,
  cutSlot,
  cutStarts,
  CUT_SEC,
} from "../../helpers/rwg-booked";

let salon: Salon & { google: GoogleClient };
beforeAll(async () => {
  salon = await googleSalon();
});

/** Each test books on its own weekday of March 2030 so tests never share calendar time. */
let week = 0;
const nextDay = () =>
  `2030-03-${String(4 + 7 * Math.floor(week / 5) + (week++ % 5)).padStart(2, "0")}`;

/** The booking's stored version and the version the booking server recorded as its own. */
async function versions(id: string) {
  const row = await everyShard
    .prepare(
      "SELECT b.version AS version, r.google_version AS google FROM bookings b JOIN rwg_bookings r ON r.booking_id = b.id WHERE b.id = ?",
    )
    .bind(id)
    .first<{ version: number; google: number }>();
  return row;
}

const cancel = (id: string) =>
  salon.google("UpdateBooking", { booking: { booking_id: id, status: "CANCELED" } });
const move = (id: string, slot: Record<string, unknown>) =>
  salon.google("UpdateBooking", { booking: { booking_id: id, slot } });

describe("UpdateBooking", () => {
  it("cancels as the customer, records its own version, and answers a second cancel BOOKING_ALREADY_CANCELLED", async () => {
    const day = nextDay();
    const staff = stafferOf(salon, 0);
    const made = await bookThroughGoogle(salon, at("08:00", day), { staff });
    expect((await cutStarts(salon, day, staff)).has("09:00")).toBe(false);

    const res = await cancel(made.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      booking: {
        ...made.booking,
        status: "CANCELED",
      },
    });
    const v = await versions(made.id);
    expect(v?.google).toBe(v?.version);
    const row = await everyShard
      .prepare("SELECT cancel_reason, canceled_by FROM bookings WHERE id = ?")
      .bind(made.id)
      .first();
    expect(row).toEqual({ cancel_reason: "canceled", canceled_by: "customer" });
    // Its time is free again.
    expect((await cutStarts(salon, day, staff)).get("09:00")).toBe(1);

    expectProtoJson("UpdateBookingResponse", res.body);
    const again = await cancel(made.id);
    expect(again.status).toBe(200);
    expectProtoJson("UpdateBookingResponse", again.body);
    expect(again.body).toEqual({
      booking_failure: { cause: "BOOKING_ALREADY_CANCELLED", description: expect.any(String) },
    });
    expect((await versions(made.id))?.version).toBe(v?.version);
  });

  it("moves a booking to another open slot: the old time is free again, the new one taken", async () => {
    const day = nextDay();
    const staff = stafferOf(salon, 1);
    const made = await bookThroughGoogle(salon, at("08:00", day), { staff });
    const res = await move(made.id, cutSlot(salon, at("10:00", day), staff));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.booking).toEqual({
      ...made.booking,
      slot: { ...made.booking.slot, start_sec: sec(at("10:00", day)), duration_sec: CUT_SEC },
      status: "CONFIRMED",
    });
    const starts = await cutStarts(salon, day, staff);
    expect(starts.get("09:00")).toBe(1);
    expect(starts.has("11:00")).toBe(false);
    const v = await versions(made.id);
    expect(v?.google).toBe(v?.version);
    // A slot naming only its start (and Google's echo of the status) moves it too.
    const back = await salon.google("UpdateBooking", {
      booking: {
        bookingId: made.id,
        status: "CONFIRMED",
        slot: { startSec: Number(sec(at("08:00", day))) },
      },
    });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.booking.slot.start_sec).toBe(sec(at("08:00", day)));
    const status = await salon.google("GetBookingStatus", { booking_id: made.id });
    expect(status.body.booking_status).toBe("CONFIRMED");
  });

  it("answers SLOT_UNAVAILABLE for a taken time, another duration, service or staffer, or a closed hour; nothing moves", async () => {
    const day = nextDay();
    const staff = stafferOf(salon, 2);
    const made = await bookThroughGoogle(salon, at("08:00", day), { staff });
    await bookThroughGoogle(salon, at("12:00", day), {
      staff,
      user: googleUser("2222222222", "+49 151 99990000"),
    });
    const asks = [
      cutSlot(salon, at("12:00", day), staff),
      { ...cutSlot(salon, at("10:00", day), staff), duration_sec: "3600" },
      { ...cutSlot(salon, at("10:00", day), staff), service_id: salon.colour.uuid },
      cutSlot(salon, at("10:00", day), stafferOf(salon, 0)),
      cutSlot(salon, at("19:00", day), staff),
      cutSlot(salon, "2020-03-02T09:00:00Z", staff),
    ];
    const before = await versions(made.id);
    for (const slot of asks) {
      const res = await move(made.id, slot);
      expect(res.status, JSON.stringify([slot, res.body])).toBe(200);
      expect(res.body, JSON.stringify(slot)).toEqual({
        booking_failure: { cause: "SLOT_UNAVAILABLE", description: expect.any(String) },
      });
    }
    expect(await versions(made.id)).toEqual(before);
    const status = await salon.google("GetBookingStatus", { booking_id: made.id });
    expect(status.body.booking_status).toBe("CONFIRMED");
  });

  it("answers two cancels at the same moment with one cancel and one BOOKING_ALREADY_CANCELLED", async () => {
    const made = await bookThroughGoogle(salon, at("08:00", nextDay()));
    const both = await Promise.all([cancel(made.id), cancel(made.id)]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    const outcomes = both.map((r) => r.body.booking?.status ?? r.body.booking_failure?.cause);
    expect(outcomes.sort()).toEqual(["BOOKING_ALREADY_CANCELLED", "CANCELED"]);
    const v = await versions(made.id);
    expect(v?.google).toBe(v?.version);
  });

  it("answers BOOKING_NOT_CANCELLABLE for a completed visit", async () => {
    const day = nextDay();
    const made = await bookThroughGoogle(salon, at("08:00", day));
    const till = await admin(`/workspaces/${salon.ws.id}/accounts`, {
      method: "POST",
      body: { location_uuid: salon.location.uuid, name: "Till", type: "cash" },
    });
    const done = await salon.ws.api(`/bookings/${made.id}/status/complete`, {
      method: "PUT",
      body: { account_uuid: till.body.uuid },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const res = await cancel(made.id);
    expect(res.body).toEqual({
      booking_failure: { cause: "BOOKING_NOT_CANCELLABLE", description: expect.any(String) },
    });
    const moved = await move(made.id, cutSlot(salon, at("10:00", day)));
    expect(moved.body.booking_failure.cause).toBe("BOOKING_NOT_CANCELLABLE");
    const status = await salon.google("GetBookingStatus", { booking_id: made.id });
    expect(status.body.booking_status).toBe("CONFIRMED");
  });

  it("answers OUTSIDE_CANCELLATION_WINDOW inside the location's cancellation and change windows", async () => {
    // A weekday within the year (the windows are at most a year long), at 12:00Z (13:00 or 14:00 in Berlin).
    const d = new Date(Date.now() + 14 * 86_400_000);
    while (d.getUTCDay() !== 3) d.setUTCDate(d.getUTCDate() + 1);
    const day = d.toISOString().slice(0, 10);
    const made = await bookThroughGoogle(salon, `${day}T12:00:00Z`);
    const patched = await admin(`/workspaces/${salon.ws.id}/locations/${salon.location.uuid}`, {
      method: "PATCH",
      body: { cancellation_offset: 60 * 24 * 60, change_offset: 60 * 24 * 60 },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    try {
      const res = await cancel(made.id);
      expect(res.body).toEqual({
        booking_failure: { cause: "OUTSIDE_CANCELLATION_WINDOW", description: expect.any(String) },
      });
      const moved = await move(made.id, cutSlot(salon, `${day}T13:00:00Z`));
      expect(moved.body.booking_failure.cause).toBe("OUTSIDE_CANCELLATION_WINDOW");
      const status = await salon.google("GetBookingStatus", { booking_id: made.id });
      expect(status.body.booking_status).toBe("CONFIRMED");
    } finally {
      await admin(`/workspaces/${salon.ws.id}/locations/${salon.location.uuid}`, {
        method: "PATCH",
        body: { cancellation_offset: 0, change_offset: 0 },
      });
    }
  });

  it("limits a customer's changes of one booking (429), as a manage link's", async () => {
    const day = nextDay();
    const staff = stafferOf(salon, 0);
    const made = await bookThroughGoogle(salon, at("08:00", day), { staff });
    // MANAGE_WRITE_RATE_LIMIT is 10 a minute in the tests (5 in production).
    const answers = [];
    for (let i = 0; i < 12; i++) {
      const hour = i % 2 === 0 ? "10:00" : "08:00";
      answers.push(await move(made.id, cutSlot(salon, at(hour, day), staff)));
    }
    expect(answers.slice(0, 5).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const limited = answers.find((r) => r.status !== 200);
    expect(limited?.status).toBe(429);
    expect(limited?.body.code).toBe("rate_limited");
  });

  it("refuses bodies that ask for nothing, for both, or are not its message (400); an unknown booking is 400", async () => {
    const made = await bookThroughGoogle(salon, at("08:00", nextDay()));
    const bodies: [unknown, string][] = [
      [{}, "invalid_argument"],
      [{ booking: {} }, "invalid_argument"],
      [{ booking: { booking_id: made.id } }, "invalid_argument"],
      [{ booking: { booking_id: made.id, status: "CONFIRMED" } }, "invalid_argument"],
      [{ booking: { booking_id: made.id, status: "NO_SHOW" } }, "invalid_argument"],
      [
        { booking: { booking_id: made.id, status: "CANCELED", slot: cutSlot(salon, at("10:00")) } },
        "invalid_argument",
      ],
      [{ booking: { booking_id: made.id, slot: { duration_sec: CUT_SEC } } }, "invalid_argument"],
      [{ booking: { booking_id: made.id, status: "CANCELLED" } }, "invalid_argument"],
      [{ booking: { booking_id: 42, status: "CANCELED" } }, "invalid_argument"],
      [{ booking: { booking_id: crypto.randomUUID(), status: "CANCELED" } }, "invalid_argument"],
      [[1, 2], "invalid_json"],
    ];
    for (const [body, code] of bodies) {
      const res = await salon.google("UpdateBooking", body);
      expect(res.status, JSON.stringify([body, res.body])).toBe(400);
      expect(res.body.code, JSON.stringify(body)).toBe(code);
    }
    const status = await salon.google("GetBookingStatus", { booking_id: made.id });
    expect(status.body.booking_status).toBe("CONFIRMED");
  });
});
