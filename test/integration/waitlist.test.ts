import { beforeEach, describe, expect, it, vi } from "vitest";
import { expectInSync } from "../helpers/calendar";
import { send, PUBLIC } from "../helpers/http";
import { ics, serve } from "../helpers/ics-server";
import { createMessagingSalon } from "../helpers/messages";
import type { Salon } from "../helpers/salon";
import type { Client } from "../helpers/http";
import {
  cancel,
  fullDay,
  joined,
  lapse,
  local,
  mondayIn,
  offered,
  offerMessages,
  offerTokenIn,
  runDesk,
  plusDays,
  WAIT_DAY,
} from "../helpers/waitlist";
import { everyShard } from "../helpers/every-shard";

const DAY = WAIT_DAY;
vi.setConfig({ testTimeout: 30_000 });
let salon: Salon;
let pk: Client;

beforeEach(async () => {
  ({ salon, pk } = await createMessagingSalon(1));
});

const slotStarts = async (date: string) => {
  const res = await salon.ws.api(
    `/locations/${salon.location.uuid}/time-slots?service_uuid=${salon.cut.uuid}&range_start=${date}&range_end=${date}`,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.dates[0]?.slots ?? []).map((s: { start: string }) => s.start) as string[];
};

describe("an offer after a cancel", () => {
  it("holds the freed start for the waiting entry, tells them, and books through the link", async () => {
    const booking = await fullDay(salon, DAY);
    const id = await joined(salon, pk);
    await runDesk(salon);
    expect((await salon.ws.api(`/waitlist/${id}`)).body.status).toBe("waiting");

    await cancel(salon, booking);
    const entry = await offered(salon, id);
    expect(entry.offer.start).toBe(local(DAY, "09:00"));
    // The time is held: nobody else sees it, and the hold is a real reservation.
    expect(await slotStarts(DAY)).toEqual([]);
    const held = await salon.ws.api(`/reservations/${entry.offer.reservation_uuid}`);
    expect(held.status).toBe(200);
    expect(held.body.items[0].services[0].staffer_uuid).toBe(salon.staffers[0]?.uuid);
    expect(Date.parse(entry.offer.expires_at) - Date.now()).toBeGreaterThan(29 * 60_000);

    // One message per channel, each with the link that books it.
    const messages = await offerMessages(id);
    expect(messages.map((m) => m.channel)).toEqual(["email", "sms"]);
    const token = offerTokenIn(messages[0]?.body ?? "");
    expect(offerTokenIn(messages[1]?.body ?? "")).toBe(token);
    const listed = await salon.ws.api("/messages?kind=waitlist-offer");
    expect(
      listed.body.data.map((m: { waitlist_entry_uuid: string }) => m.waitlist_entry_uuid),
    ).toEqual([id, id]);
    const events = await everyShard
      .prepare("select payload from events where workspace_id = ? and type = 'waitlist-offered'")
      .bind(salon.ws.id)
      .all<{ payload: string }>();
    expect(events.results.map((e) => JSON.parse(e.payload).uuid)).toEqual([id]);

    const page = await send(`${PUBLIC}/waitlist-offers/${token}`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body).toMatchObject({
      entry_uuid: id,
      customer_first_name: "Wanda",
      start: local(DAY, "09:00"),
      services: [{ service_uuid: salon.cut.uuid, name: "Haircut", staffer_first_name: "Staff 0" }],
    });
    const booked = await send(`${PUBLIC}/waitlist-offers/${token}/book`, { method: "POST" });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(booked.body.ordered_services[0].reserved_on).toBe(local(DAY, "09:00"));
    const after = await salon.ws.api(`/waitlist/${id}`);
    expect(after.body).toMatchObject({
      status: "booked",
      booking_uuid: booked.body.uuid,
      offer: null,
    });
    // The link is spent (its page shows the booking it became); the reservation is used.
    const spent = await send(`${PUBLIC}/waitlist-offers/${token}`);
    expect(spent.status).toBe(200);
    expect(spent.body).toMatchObject({ status: "booked", booking: { uuid: booked.body.uuid } });
    expect((await send(`${PUBLIC}/waitlist-offers/${token}/book`, { method: "POST" })).status).toBe(
      409,
    );
    await expectInSync(salon.ws.id, [salon.staffers[0]?.uuid ?? ""]);
  });

  it("a booking with the offer's reservation_uuid books the entry too", async () => {
    const booking = await fullDay(salon, DAY);
    const id = await joined(salon, salon.ws.api);
    await cancel(salon, booking);
    const entry = await offered(salon, id);
    const res = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: entry.offer.start,
        reservation_uuid: entry.offer.reservation_uuid,
        customer_phone: "+49 151 22222222",
        customer_first_name: "Wanda",
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((await salon.ws.api(`/waitlist/${id}`)).body).toMatchObject({
      status: "booked",
      booking_uuid: res.body.uuid,
    });
  });

  it("a bad token is 401 invalid_token, whatever its shape", async () => {
    for (const token of ["x", "A".repeat(43), "A".repeat(128)]) {
      const res = await send(`${PUBLIC}/waitlist-offers/${token}`);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("invalid_token");
    }
  });
});

describe("order, windows and times", () => {
  it("the oldest entry that fits gets the offer; the next waits", async () => {
    const booking = await fullDay(salon, DAY);
    const first = await joined(salon, salon.ws.api, { customer_phone: "+49 151 30000001" });
    const second = await joined(salon, salon.ws.api, { customer_phone: "+49 151 30000002" });
    await cancel(salon, booking);
    await offered(salon, first);
    await runDesk(salon);
    expect((await salon.ws.api(`/waitlist/${second}`)).body.status).toBe("waiting");
  });

  it("entries whose dates, times or staffer do not fit are passed over for one that does", async () => {
    const booking = await fullDay(salon, DAY);
    const { staffers } = salon;
    const saturday = await joined(salon, salon.ws.api, {
      customer_phone: "+49 151 30000011",
      from: plusDays(DAY, 5),
      to: plusDays(DAY, 5),
    });
    const afternoon = await joined(salon, salon.ws.api, {
      customer_phone: "+49 151 30000012",
      times: [{ start: "14:00", end: "16:00" }],
    });
    const colour = await joined(salon, salon.ws.api, {
      customer_phone: "+49 151 30000013",
      services: [{ service_uuid: salon.colour.uuid, staffer_uuid: staffers[0]?.uuid }],
    });
    const morning = await joined(salon, salon.ws.api, {
      customer_phone: "+49 151 30000014",
      times: [{ start: "08:00", end: "10:00" }],
    });
    await cancel(salon, booking);
    await offered(salon, morning);
    await runDesk(salon);
    for (const id of [saturday, afternoon, colour]) {
      expect((await salon.ws.api(`/waitlist/${id}`)).body.status, id).toBe("waiting");
    }
  });

  it("time already free when an entry joins is offered to it at once", async () => {
    const id = await joined(salon, pk, { times: [{ start: "15:00", end: "17:00" }] });
    const entry = await offered(salon, id);
    expect(entry.offer.start).toBe(local(DAY, "15:00"));
  });
});

describe("an offer that ends unbooked", () => {
  it("goes to the next entry at expiry; the first waits again and is not offered that time again", async () => {
    const booking = await fullDay(salon, DAY);
    const first = await joined(salon, salon.ws.api, { customer_phone: "+49 151 30000021" });
    const second = await joined(salon, salon.ws.api, { customer_phone: "+49 151 30000022" });
    await cancel(salon, booking);
    const offer = await offered(salon, first);
    await lapse(salon, first);
    const next = await offered(salon, second);
    expect(next.offer.start).toBe(offer.offer.start);
    expect(next.offer.reservation_uuid).not.toBe(offer.offer.reservation_uuid);
    expect((await salon.ws.api(`/waitlist/${first}`)).body).toMatchObject({
      status: "waiting",
      offer: null,
    });
    // The second lets it lapse too: nobody is left who has not passed on it.
    await lapse(salon, second);
    for (const id of [first, second]) {
      expect((await salon.ws.api(`/waitlist/${id}`)).body.status).toBe("waiting");
    }
    expect(await slotStarts(DAY)).toEqual(["09:00"]);
  });

  it("a declined offer (its reservation deleted) goes to the next entry", async () => {
    const booking = await fullDay(salon, DAY);
    const first = await joined(salon, pk, { customer_phone: "+49 151 30000031" });
    const second = await joined(salon, salon.ws.api, { customer_phone: "+49 151 30000032" });
    await cancel(salon, booking);
    const offer = await offered(salon, first);
    const released = await pk(`/reservations/${offer.offer.reservation_uuid}`, {
      method: "DELETE",
    });
    expect(released.status).toBe(204);
    await offered(salon, second);
  });

  it("deleting an offered entry releases its time to the next", async () => {
    const booking = await fullDay(salon, DAY);
    const first = await joined(salon, pk, { customer_phone: "+49 151 30000041" });
    const second = await joined(salon, salon.ws.api, { customer_phone: "+49 151 30000042" });
    await cancel(salon, booking);
    await offered(salon, first);
    expect((await pk(`/waitlist/${first}`, { method: "DELETE" })).status).toBe(204);
    expect((await salon.ws.api(`/waitlist/${first}`)).body.status).toBe("canceled");
    await offered(salon, second);
  });

  it("an entry whose last day has passed expires", async () => {
    const id = await joined(salon, salon.ws.api, { from: plusDays(DAY, 5), to: plusDays(DAY, 5) });
    await everyShard
      .prepare("update waitlist_entries set window_end = ? where id = ?")
      .bind(Date.now() - 1, id)
      .run();
    await runDesk(salon);
    expect((await salon.ws.api(`/waitlist/${id}`)).body.status).toBe("expired");
  });
});

describe("freeing writes", () => {
  it("a reschedule away frees the old time for the waitlist", async () => {
    const booking = await fullDay(salon, DAY);
    const id = await joined(salon, salon.ws.api);
    const moved = await salon.ws.api(`/bookings/${booking}/reschedule`, {
      method: "PUT",
      body: { reserved_on: local(plusDays(DAY, 1), "10:00") },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await offered(salon, id)).offer.start).toBe(local(DAY, "09:00"));
  });

  it("external busy time removed (the calendar deleted) frees its time for the waitlist", async () => {
    const staffer = salon.staffers[0]?.uuid ?? "";
    const day = mondayIn(3);
    const url = await serve(`/waitlist/${crypto.randomUUID()}.ics`, {
      body: ics([
        {
          uid: "gym",
          start: Date.parse(local(day, "12:00")),
          end: Date.parse(local(day, "18:00")),
        },
      ]),
    });
    const added = await salon.ws.api(`/staffers/${staffer}/external-calendars`, {
      method: "POST",
      body: { url },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const spot = await salon.ws.api(`/staffers/${staffer}/blocked-spots`, {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        starts_at: local(day, "09:00"),
        ends_at: local(day, "12:00"),
      },
    });
    expect(spot.status, JSON.stringify(spot.body)).toBe(201);
    const id = await joined(salon, salon.ws.api, { from: day, to: day });
    await runDesk(salon);
    expect((await salon.ws.api(`/waitlist/${id}`)).body.status).toBe("waiting");
    const removed = await salon.ws.api(
      `/staffers/${staffer}/external-calendars/${added.body.uuid}`,
      {
        method: "DELETE",
      },
    );
    expect(removed.status, JSON.stringify(removed.body)).toBe(204);
    expect((await offered(salon, id)).offer.start).toBe(local(day, "12:00"));
  });

  it("a change of staffer frees the first staffer's time", async () => {
    ({ salon, pk } = await createMessagingSalon(2));
    const booking = await fullDay(salon, DAY, 0);
    const id = await joined(salon, salon.ws.api, {
      services: [{ service_uuid: salon.cut.uuid, staffer_uuid: salon.staffers[0]?.uuid }],
    });
    await runDesk(salon);
    expect((await salon.ws.api(`/waitlist/${id}`)).body.status).toBe("waiting");
    const handed = await salon.ws.api(`/bookings/${booking}/staffer`, {
      method: "PUT",
      body: { staffer_uuid: salon.staffers[1]?.uuid },
    });
    expect(handed.status, JSON.stringify(handed.body)).toBe(200);
    const entry = await offered(salon, id);
    expect(entry.offer.start).toBe(local(DAY, "09:00"));
    const held = await salon.ws.api(`/reservations/${entry.offer.reservation_uuid}`);
    expect(held.body.items[0].services[0].staffer_uuid).toBe(salon.staffers[0]?.uuid);
  });
});

describe("classes (group sessions)", () => {
  it("a seat freed in a full session is offered to the next waiting for that class", async () => {
    const staffer = salon.staffers[0]?.uuid ?? "";
    const yoga = await salon.ws.api("/services", {
      method: "POST",
      body: { name: "Yoga", duration: 60, price: 1500, capacity: 2 },
    });
    expect(yoga.status, JSON.stringify(yoga.body)).toBe(201);
    for (const [from, to] of [
      ["09:00", "10:00"],
      ["11:00", "18:00"],
    ] as const) {
      const spot = await salon.ws.api(`/staffers/${staffer}/blocked-spots`, {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          starts_at: local(DAY, from),
          ends_at: local(DAY, to),
        },
      });
      expect(spot.status, JSON.stringify(spot.body)).toBe(201);
    }
    const seats = [];
    for (const phone of ["+49 151 31000001", "+49 151 31000002"]) {
      const seat = await salon.ws.api("/bookings", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          service_uuid: yoga.body.uuid,
          staffer_uuid: staffer,
          reserved_on: local(DAY, "10:00"),
          customer_phone: phone,
          customer_first_name: "Yogi",
        },
      });
      expect(seat.status, JSON.stringify(seat.body)).toBe(201);
      seats.push(seat.body.uuid as string);
    }
    const id = await joined(salon, salon.ws.api, { services: [{ service_uuid: yoga.body.uuid }] });
    await runDesk(salon);
    expect((await salon.ws.api(`/waitlist/${id}`)).body.status).toBe("waiting");
    await cancel(salon, seats[0] ?? "");
    const entry = await offered(salon, id);
    expect(entry.offer.start).toBe(local(DAY, "10:00"));
    // The other seat stays booked: the offer holds the freed seat in the same session.
    const sessions = await salon.ws.api(
      `/sessions?location_uuid=${salon.location.uuid}&service_uuid=${yoga.body.uuid}&from=${local(DAY, "00:00")}&to=${local(DAY, "23:00")}`,
    );
    expect(sessions.status, JSON.stringify(sessions.body)).toBe(200);
    expect(sessions.body.data).toMatchObject([{ seats_taken: 1, booking_uuids: [seats[1]] }]);
  });
});
