import { describe, expect, it } from "vitest";
import { d1RoundTrips, send } from "../../helpers/http";
import { at, customer } from "../../helpers/salon";
import { googleSalon, RWG, sec } from "../../helpers/rwg";

type GoogleSalon = Awaited<ReturnType<typeof googleSalon>>;

const CUT_SEC = String(45 * 60);

/** Google's Slot of the salon's haircut at a time of MONDAY (Berlin = UTC+1 then). */
const cutSlot = (s: GoogleSalon, hhmm: string, extra: Record<string, unknown> = {}) => ({
  merchant_id: s.location.uuid,
  service_id: s.cut.uuid,
  start_sec: sec(at(hhmm)),
  duration_sec: CUT_SEC,
  ...extra,
});

const check = async (s: GoogleSalon, slot: unknown) => {
  const res = await s.google("CheckAvailability", { slot });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.count_available as number;
};

describe("Reserve with Google: CheckAvailability", () => {
  it("counts free staffers, one less once a staffer is booked (0 for that staffer), in 2 D1 round trips", async () => {
    const s = await googleSalon();
    const res = await s.google("CheckAvailability", { slot: cutSlot(s, "09:00") });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The slot comes back as Google sent it; the count is written even when it is 0.
    expect(res.body).toEqual({ slot: cutSlot(s, "09:00"), count_available: 3 });
    expect(d1RoundTrips(res.headers)).toBe(2);

    const [first, second] = [s.staffers[0]?.uuid ?? "", s.staffers[1]?.uuid ?? ""];
    const booked = await s.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: s.location.uuid,
        service_uuid: s.cut.uuid,
        staffer_uuid: first,
        reserved_on: at("09:00"),
        ...customer(),
      },
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(await check(s, cutSlot(s, "09:00"))).toBe(2);
    expect(await check(s, cutSlot(s, "09:00", { resources: { staff_id: first } }))).toBe(0);
    expect(await check(s, cutSlot(s, "09:00", { resources: { staff_id: second } }))).toBe(1);
    // "" is anyone; the cut's 15-minute pause keeps the first staffer busy until 10:00.
    expect(await check(s, cutSlot(s, "09:00", { resources: { staff_id: "" } }))).toBe(2);
    expect(await check(s, cutSlot(s, "09:45"))).toBe(2);
    expect(await check(s, cutSlot(s, "10:00"))).toBe(3);
    const zero = await s.google("CheckAvailability", {
      slot: cutSlot(s, "09:00", { resources: { staff_id: first } }),
    });
    expect(zero.body).toEqual({
      slot: cutSlot(s, "09:00", { resources: { staff_id: first } }),
      count_available: 0,
    });
  });

  it("answers 0 for what is not a slot: another duration, off the grid, past, closed, an unknown staffer", async () => {
    const s = await googleSalon();
    expect(await check(s, cutSlot(s, "09:00", { duration_sec: "3600" }))).toBe(0);
    expect(await check(s, cutSlot(s, "09:00", { duration_sec: "0" }))).toBe(0);
    expect(await check(s, { ...cutSlot(s, "09:00"), start_sec: sec("2030-03-04T08:07:00Z") })).toBe(
      0,
    );
    expect(await check(s, { ...cutSlot(s, "09:00"), start_sec: sec("2020-03-02T08:00:00Z") })).toBe(
      0,
    );
    expect(await check(s, cutSlot(s, "20:00"))).toBe(0);
    expect(
      await check(s, { ...cutSlot(s, "09:00"), start_sec: sec("2030-03-09T09:00:00Z") }), // Saturday
    ).toBe(0);
    expect(
      await check(s, cutSlot(s, "09:00", { resources: { staff_id: crypto.randomUUID() } })),
    ).toBe(0);
    // Far beyond any season Google shows (the wire's largest int64, 8.64e12 s): unavailable, not searched.
    expect(await check(s, { ...cutSlot(s, "09:00"), start_sec: "8640000000000" })).toBe(0);
  });

  it("counts a group service's free seats, and 0 for a service Google may not book (paid online)", async () => {
    const s = await googleSalon(2);
    const yoga = await s.ws.api("/services", {
      method: "POST",
      body: { name: "Yoga", duration: 60, price: 1500, capacity: 4 },
    });
    expect(yoga.status, JSON.stringify(yoga.body)).toBe(201);
    const paid = await s.ws.api("/services", {
      method: "POST",
      body: { name: "Prepaid cut", duration: 45, price: 3500, payment_policy: { mode: "prepay" } },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    const yogaSlot = { ...cutSlot(s, "09:00"), service_id: yoga.body.uuid, duration_sec: "3600" };
    // Two staffers, each could open a session of 4 seats.
    expect(await check(s, yogaSlot)).toBe(8);
    const booked = await s.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: s.location.uuid,
        service_uuid: yoga.body.uuid,
        staffer_uuid: s.staffers[0]?.uuid,
        reserved_on: at("09:00"),
        ...customer(),
      },
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(await check(s, yogaSlot)).toBe(7);
    expect(
      await check(s, { ...yogaSlot, resources: { staff_id: s.staffers[0]?.uuid ?? "" } }),
    ).toBe(3);
    expect(await check(s, { ...cutSlot(s, "09:00"), service_id: paid.body.uuid })).toBe(0);
  });

  it("accepts lowerCamel keys, numeric int64 and enums by number", async () => {
    const s = await googleSalon();
    const res = await s.google("CheckAvailability", {
      slot: {
        merchantId: s.location.uuid,
        serviceId: s.colour.uuid,
        startSec: Number(sec(at("09:00"))),
        durationSec: 90 * 60,
        confirmationMode: 1,
        resources: { staffId: s.staffers[2]?.uuid },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      slot: {
        merchant_id: s.location.uuid,
        service_id: s.colour.uuid,
        start_sec: sec(at("09:00")),
        duration_sec: String(90 * 60),
        confirmation_mode: "CONFIRMATION_MODE_SYNCHRONOUS",
        resources: { staff_id: s.staffers[2]?.uuid },
      },
      count_available: 1,
    });
  });

  it("refuses missing fields, an unknown or offline service and another workspace's location (400)", async () => {
    const s = await googleSalon();
    const other = await googleSalon(1);
    const hidden = await s.ws.api("/services", {
      method: "POST",
      body: { name: "Desk only", duration: 45, price: 1000, live_in_widget: false },
    });
    expect(hidden.status, JSON.stringify(hidden.body)).toBe(201);
    const cases: [unknown, string][] = [
      [{}, "slot"],
      [{ slot: { ...cutSlot(s, "09:00"), merchant_id: "" } }, "slot.merchant_id"],
      [{ slot: { ...cutSlot(s, "09:00"), service_id: undefined } }, "slot.service_id"],
      [{ slot: { ...cutSlot(s, "09:00"), start_sec: undefined } }, "slot.start_sec"],
      [{ slot: { ...cutSlot(s, "09:00"), service_id: crypto.randomUUID() } }, "slot.service_id"],
      [{ slot: { ...cutSlot(s, "09:00"), service_id: hidden.body.uuid } }, "slot.service_id"],
      [{ slot: { ...cutSlot(s, "09:00"), service_id: other.cut.uuid } }, "slot.service_id"],
      [{ slot: { ...cutSlot(s, "09:00"), merchant_id: other.location.uuid } }, "slot.merchant_id"],
      [{ slot: { ...cutSlot(s, "09:00"), merchant_id: crypto.randomUUID() } }, "slot.merchant_id"],
      [{ slot: { ...cutSlot(s, "09:00"), start_sec: "nine" } }, "slot.start_sec"],
    ];
    for (const [body, field] of cases) {
      const res = await s.google("CheckAvailability", body);
      expect(res.status, JSON.stringify([body, res.body])).toBe(400);
      expect(res.body.code).toBe("invalid_argument");
      expect(Object.keys(res.body.errors ?? {}), JSON.stringify([body, res.body])).toEqual([field]);
    }
    // Another workspace's location answers exactly as a location that never existed.
    const foreign = await s.google("CheckAvailability", {
      slot: { ...cutSlot(s, "09:00"), merchant_id: other.location.uuid },
    });
    const none = await s.google("CheckAvailability", {
      slot: { ...cutSlot(s, "09:00"), merchant_id: "nowhere" },
    });
    expect(foreign.body).toEqual(none.body);
  });

  it("refuses a call without credentials (401)", async () => {
    const s = await googleSalon(1);
    for (const method of ["CheckAvailability", "BatchAvailabilityLookup"]) {
      const res = await send(`${RWG}/${method}`, {
        method: "POST",
        body: { slot: cutSlot(s, "09:00"), merchant_id: s.location.uuid },
      });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: "unauthenticated" });
    }
  });
});

describe("Reserve with Google: BatchAvailabilityLookup", () => {
  const slotTime = (s: GoogleSalon, iso: string, extra: Record<string, unknown> = {}) => ({
    service_id: s.cut.uuid,
    start_sec: sec(iso),
    duration_sec: CUT_SEC,
    ...extra,
  });

  it("answers each slot time in order, unknown services and staffers just unavailable, 20 slots in 2 D1 round trips", async () => {
    const s = await googleSalon(1);
    const staffer = s.staffers[0]?.uuid ?? "";
    const asked = [
      slotTime(s, at("09:00")),
      slotTime(s, at("09:00"), { duration_sec: "3600" }),
      slotTime(s, at("09:00"), { service_id: crypto.randomUUID() }),
      slotTime(s, at("09:00"), { resource_ids: { staff_id: crypto.randomUUID() } }),
      slotTime(s, at("09:00"), { resource_ids: { staff_id: staffer } }),
      slotTime(s, at("09:05")),
      slotTime(s, at("09:00", "2030-03-05")),
      slotTime(s, at("09:00", "2030-03-09")),
      {
        service_id: s.colour.uuid,
        start_sec: sec(at("12:00")),
        duration_sec: String(90 * 60),
        availability_tag: "tag-1",
      },
    ];
    const res = await s.google("BatchAvailabilityLookup", {
      merchant_id: s.location.uuid,
      slot_time: asked,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      slot_time_availability: asked.map((slot_time, i) => ({
        slot_time,
        available: [true, false, false, false, true, false, true, false, true][i],
      })),
    });

    // Twenty slots over three days and both services: one read after the credentials'.
    const twenty = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0
        ? slotTime(s, at(`${String(8 + (i % 8)).padStart(2, "0")}:00`, `2030-03-0${4 + (i % 3)}`))
        : { ...slotTime(s, at("10:30")), service_id: s.colour.uuid, duration_sec: "5400" },
    );
    const batch = await s.google("BatchAvailabilityLookup", {
      merchantId: s.location.uuid,
      slotTime: twenty,
    });
    expect(batch.status, JSON.stringify(batch.body)).toBe(200);
    expect(batch.body.slot_time_availability).toHaveLength(20);
    expect(d1RoundTrips(batch.headers)).toBe(2);
  });

  it("answers 500 slot times in order and refuses 501 (400)", async () => {
    const s = await googleSalon(2);
    const booked = await s.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: s.location.uuid,
        service_uuid: s.cut.uuid,
        staffer_uuid: s.staffers[0]?.uuid,
        reserved_on: at("10:00"),
        ...customer(),
      },
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    // Every 5 minutes from 08:00 to 18:00 local, Mon–Fri, both staffers and anyone: on the
    // 15-minute grid inside working hours is a slot unless the booked staffer was asked.
    const asked = [];
    const expected = [];
    for (let i = 0; asked.length < 500; i++) {
      const day = Math.floor(i / 120) % 5;
      const minute = 7 * 60 + (i % 120) * 5; // UTC minutes: 07:00Z = 08:00 Berlin
      const date = `2030-03-0${4 + day}`;
      const iso = `${date}T${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}:00Z`;
      const who = i % 3 === 0 ? "" : (s.staffers[i % 2]?.uuid ?? "");
      asked.push(slotTime(s, iso, who ? { resource_ids: { staff_id: who } } : {}));
      const onGrid = minute % 15 === 0 && minute >= 8 * 60 && minute + 60 <= 17 * 60;
      // The booking keeps staffer 0 busy 10:00Z–11:00Z (cut + pause): a cut after 09:00Z overlaps.
      const blocked =
        day === 0 && who === s.staffers[0]?.uuid && minute > 9 * 60 && minute < 11 * 60;
      expected.push(onGrid && !blocked);
    }
    const res = await s.google("BatchAvailabilityLookup", {
      merchant_id: s.location.uuid,
      slot_time: asked,
    });
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
    expect(res.body.slot_time_availability.map((a: { slot_time: unknown }) => a.slot_time)).toEqual(
      asked,
    );
    expect(res.body.slot_time_availability.map((a: { available: boolean }) => a.available)).toEqual(
      expected,
    );
    expect(d1RoundTrips(res.headers)).toBe(2);

    const tooMany = await s.google("BatchAvailabilityLookup", {
      merchant_id: s.location.uuid,
      slot_time: [...asked, slotTime(s, at("09:00"))],
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.code).toBe("invalid_argument");
  });

  it("refuses a missing merchant or field, another workspace's location and too wide a span (400)", async () => {
    const s = await googleSalon(1);
    const other = await googleSalon(1);
    const cases: [unknown, string][] = [
      [{ slot_time: [slotTime(s, at("09:00"))] }, "merchant_id"],
      [{ merchant_id: other.location.uuid, slot_time: [slotTime(s, at("09:00"))] }, "merchant_id"],
      [
        { merchant_id: s.location.uuid, slot_time: [slotTime(s, at("09:00"), { service_id: "" })] },
        "slot_time.0.service_id",
      ],
      [
        {
          merchant_id: s.location.uuid,
          slot_time: [slotTime(s, at("09:00")), slotTime(s, at("09:00"), { start_sec: "0" })],
        },
        "slot_time.1.start_sec",
      ],
      [
        {
          merchant_id: s.location.uuid,
          slot_time: [slotTime(s, at("09:00")), slotTime(s, at("09:00", "2030-05-06"))],
        },
        "slot_time",
      ],
    ];
    for (const [body, field] of cases) {
      const res = await s.google("BatchAvailabilityLookup", body);
      expect(res.status, JSON.stringify([body, res.body])).toBe(400);
      expect(res.body.code).toBe("invalid_argument");
      expect(Object.keys(res.body.errors ?? {}), JSON.stringify([body, res.body])).toEqual([field]);
    }
    // An empty lookup of a known merchant is an empty answer.
    const empty = await s.google("BatchAvailabilityLookup", { merchant_id: s.location.uuid });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ slot_time_availability: [] });
  });
});
