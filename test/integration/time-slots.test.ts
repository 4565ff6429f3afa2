import { beforeAll, describe, expect, it } from "vitest";
import { createWorkspace } from "../helpers/factory";
import { d1RoundTrips } from "../helpers/http";
import { at, createSalon, customer, MONDAY, type Salon } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

let salon: Salon;
beforeAll(async () => {
  salon = await createSalon(3);
});

const slots = (query: string) =>
  salon.ws.api(`/locations/${salon.location.uuid}/time-slots?${query}`);
const day = (date: string) =>
  `service_uuid=${salon.cut.uuid}&range_start=${date}&range_end=${date}`;

describe("GET /locations/{location_uuid}/time-slots", () => {
  it("lists every free start of a working day with quantity, price and intervals", async () => {
    const res = await slots(day(MONDAY));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(3);
    expect(res.body).toMatchObject({
      timezone: "Europe/Berlin",
      currency: "EUR",
      today: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    const [monday] = res.body.dates;
    expect(monday.date).toBe(MONDAY);
    // 09:00 … 17:00 every 15 minutes: the 45-minute cut plus its 15-minute buffer must end by 18:00.
    expect(monday.slots).toHaveLength(33);
    expect(monday.slots[0]).toEqual({
      start: "09:00",
      start_formatted: 32_400,
      end: "09:45",
      end_formatted: 35_100,
      quantity: 3,
      price: 3500,
      price_formatted: "€35.00",
    });
    expect(monday.slots.at(-1).start).toBe("17:00");
    expect(monday.intervals).toEqual([
      { start: "09:00", start_formatted: 32_400, end: "17:45", end_formatted: 63_900 },
    ]);
  });

  it("drops a booked staffer from overlapping starts and a blocked staffer entirely", async () => {
    const [a, b] = salon.staffers;
    const date = "2030-03-05";
    const booked = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: at("09:00", date),
        staffer_uuid: a?.uuid,
        ...customer(),
      },
    });
    expect(booked.status).toBe(201);
    const blocked = await salon.ws.api(`/staffers/${b?.uuid}/blocked-spots`, {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        starts_at: `${date}T00:00:00Z`,
        ends_at: `${date}T23:00:00Z`,
      },
    });
    expect(blocked.status).toBe(201);
    const res = await slots(day(date));
    const q = Object.fromEntries(
      res.body.dates[0].slots.map((s: { start: string; quantity: number }) => [
        s.start,
        s.quantity,
      ]),
    );
    // Staffer a is busy 10:00–11:00 local (09:00Z plus the buffer): starts 09:15…10:45 would overlap.
    expect(q["09:00"]).toBe(2);
    expect(q["09:15"]).toBe(1);
    expect(q["10:45"]).toBe(1);
    expect(q["11:00"]).toBe(2);
    const onlyA = await slots(`${day(date)}&staffer_uuid=${a?.uuid}`);
    expect(onlyA.body.dates[0].slots.map((s: { start: string }) => s.start)).not.toContain("10:00");
    expect(onlyA.body.dates[0].slots.every((s: { quantity: number }) => s.quantity === 1)).toBe(
      true,
    );
    const onlyB = await slots(`${day(date)}&staffer_uuid=${b?.uuid}`);
    expect(onlyB.body.dates[0].slots).toEqual([]);
  });

  it("renders times on the client's clock", async () => {
    const res = await slots(`${day(MONDAY)}&timezone=America/New_York`);
    expect(res.body.timezone).toBe("America/New_York");
    // 09:00 in Berlin (UTC+1) is 03:00 in New York (UTC-5) that Monday.
    expect(res.body.dates[0].slots[0]).toMatchObject({ start: "03:00", start_formatted: 10_800 });
  });

  it("cuts an instant range inside the day", async () => {
    const res = await slots(
      `service_uuid=${salon.cut.uuid}&range_start=${at("09:00")}&range_end=${at("10:00")}`,
    );
    const starts = res.body.dates.flatMap((d: { slots: { start: string }[] }) =>
      d.slots.map((s) => s.start),
    );
    expect(starts).toEqual(["10:00", "10:15", "10:30", "10:45", "11:00"]);
  });

  it("returns empty days off and weekends", async () => {
    const res = await slots(
      `service_uuid=${salon.cut.uuid}&range_start=2030-03-09&range_end=2030-03-10`,
    );
    expect(res.body.dates).toEqual([
      { date: "2030-03-09", slots: [], intervals: [] },
      { date: "2030-03-10", slots: [], intervals: [] },
    ]);
  });

  it.each([
    ["a reversed range", "range_start=2030-03-10&range_end=2030-03-04", "range_end"],
    ["more than 62 days", "range_start=2030-03-01&range_end=2030-05-02", "range_end"],
    ["a bad date", "range_start=2030-02-30&range_end=2030-03-04", "range_start"],
    ["no range", "", "range_start"],
  ])("rejects %s with 422", async (_, range, field) => {
    const res = await slots(`service_uuid=${salon.cut.uuid}&${range}`);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toContain(field);
  });

  it("accepts exactly 62 days", async () => {
    const res = await slots(
      `service_uuid=${salon.cut.uuid}&range_start=2030-03-01&range_end=2030-05-01`,
    );
    expect(res.status).toBe(200);
    expect(res.body.dates).toHaveLength(62);
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(3);
  });

  it("answers 422 for an unknown service and 404 for another workspace's location", async () => {
    const unknown = await slots(
      `${day(MONDAY)}`.replace(salon.cut.uuid, "00000000-0000-4000-8000-000000000001"),
    );
    expect(unknown.status).toBe(422);
    const other = await createWorkspace();
    const res = await other.api(`/locations/${salon.location.uuid}/time-slots?${day(MONDAY)}`);
    expect(res.status).toBe(404);
  });
});

describe("cart slots", () => {
  const services = () => [
    { service_uuid: salon.cut.uuid },
    { service_uuid: salon.colour.uuid, staffer_uuid: salon.staffers[2]?.uuid },
  ];

  it("finds the nearest date on which the whole cart fits", async () => {
    const res = await salon.ws.api(`/locations/${salon.location.uuid}/time-slots/cart/next`, {
      method: "POST",
      body: { services: services() },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [entry] = res.body.data;
    expect(entry).toMatchObject({ timezone: "Europe/Berlin", currency: "EUR" });
    const [first] = entry.dates;
    // Computed here, not by the engine: today in the salon's zone, and the weekdays after it.
    const berlinToday = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Berlin" }).format(
      new Date(),
    );
    const plusDays = (date: string, n: number) =>
      new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
    const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();
    // Never a past date, always a working day (Mon–Fri), and the staff are free all week, so no
    // later than the next working day after today.
    expect(first.date >= berlinToday, `${first.date} before ${berlinToday}`).toBe(true);
    expect([1, 2, 3, 4, 5]).toContain(weekday(first.date));
    let nextWorkingDay = plusDays(berlinToday, 1);
    while (weekday(nextWorkingDay) === 0 || weekday(nextWorkingDay) === 6)
      nextWorkingDay = plusDays(nextWorkingDay, 1);
    expect(first.date <= nextWorkingDay, `${first.date} after ${nextWorkingDay}`).toBe(true);
    // A day after today starts when the day does.
    if (first.date > berlinToday) expect(first.slot.start).toBe("09:00");
    // The same date and start as the first fitting date of the cart calendar from today on.
    const calendar = await salon.ws.api(`/locations/${salon.location.uuid}/time-slots/cart`, {
      method: "POST",
      body: { services: services(), range_start: berlinToday, range_end: plusDays(berlinToday, 6) },
    });
    expect(calendar.status, JSON.stringify(calendar.body)).toBe(200);
    expect(calendar.body.data[0].dates[0]).toMatchObject({
      date: first.date,
      slot: { start: first.slot.start },
    });
    expect(first.slot).toMatchObject({ price: 3500 + 7900 });
    expect(first.slot.staffers).toHaveLength(2);
    expect(first.slot.staffers[1]).toEqual({ uuid: salon.staffers[2]?.uuid });
    expect(first.slot.end_formatted - first.slot.start_formatted).toBe((45 + 15 + 90) * 60);
  });

  it("lists the first slot of every fitting date in a range", async () => {
    const res = await salon.ws.api(`/locations/${salon.location.uuid}/time-slots/cart`, {
      method: "POST",
      body: { services: services(), range_start: "2030-03-11", range_end: "2030-03-17" },
    });
    expect(res.status).toBe(200);
    const dates = res.body.data[0].dates;
    expect(dates.map((d: { date: string }) => d.date)).toEqual([
      "2030-03-11",
      "2030-03-12",
      "2030-03-13",
      "2030-03-14",
      "2030-03-15",
    ]);
    expect(dates[0].slot).toMatchObject({ start: "09:00", end: "11:30" });
  });

  it("validates the cart", async () => {
    const none = await salon.ws.api(`/locations/${salon.location.uuid}/time-slots/cart/next`, {
      method: "POST",
      body: { services: [] },
    });
    expect(none.status).toBe(422);
    const eleven = Array.from({ length: 11 }, () => ({ service_uuid: salon.cut.uuid }));
    expect(
      (
        await salon.ws.api(`/locations/${salon.location.uuid}/time-slots/cart/next`, {
          method: "POST",
          body: { services: eleven },
        })
      ).status,
    ).toBe(422);
    const unknown = await salon.ws.api(`/locations/${salon.location.uuid}/time-slots/cart/next`, {
      method: "POST",
      body: { services: [{ service_uuid: crypto.randomUUID() }] },
    });
    expect(unknown.status).toBe(422);
    expect(Object.keys(unknown.body.errors)).toEqual(["services.0.service_uuid"]);
  });

  it("keeps the database untouched by searches", async () => {
    const before = await everyShard.prepare("select count(*) as n from bookings").first<{
      n: number;
    }>();
    await slots(day(MONDAY));
    const after = await everyShard
      .prepare("select count(*) as n from bookings")
      .first<{ n: number }>();
    expect(after).toEqual(before);
  });
});
