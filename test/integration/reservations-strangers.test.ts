import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { failpoints, rendezvous } from "../../src/platform/failpoints";
import { expectInSync, expectUnitsInSync, overlaps, liveIntervals } from "../helpers/calendar";
import { admin, d1RoundTrips, type Sent } from "../helpers/http";
import { createPublishableKey, type PublishableKey } from "../helpers/keys";
import { createResource, type TestResource } from "../helpers/resources";
import { createSalon, customer, type Salon } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

/**
 * A stranger with the widget's publishable key (it is in every salon's page)
 * must not be able to empty a salon's day or stand in the front desk's way:
 * holds are capped per visitor and bounded, staff writes take a publishable
 * hold's time (ending the hold), and staff can list and release holds.
 */

let salon: Salon;
let pk: PublishableKey;
let staff: string[];

beforeAll(async () => {
  salon = await createSalon(3);
  pk = await createPublishableKey(salon.ws);
  staff = salon.staffers.map((s) => s.uuid);
});

/** The n-th weekday from Monday 2030-03-04: each test works on days of its own. */
const weekday = (n: number) => {
  const week = Math.floor(n / 5);
  const d = new Date(Date.parse("2030-03-04T00:00:00Z") + (week * 7 + (n % 5)) * 86_400_000);
  return d.toISOString().slice(0, 10);
};
/** 09:00Z..15:00Z is inside 09–18 Berlin time in winter and in summer. */
const at = (day: number, hh: number, mm = 0) =>
  `${weekday(day)}T${String(hh).padStart(2, "0")}:${String(mm).padStart(2, "0")}:00Z`;

let addresses = 0;
/** A visitor: the publishable key from an address of its own (the cap counts per address). */
const visitor = (ip = `198.51.100.${++addresses}`) => {
  return (path: string, sent: Sent = {}) =>
    pk.api(path, { ...sent, headers: { "cf-connecting-ip": ip, ...sent.headers } });
};

type Api = ReturnType<typeof visitor>;

const services = (serviceIds: string[], stafferId?: string) =>
  serviceIds.map((id) => ({ service_uuid: id, ...(stafferId ? { staffer_uuid: stafferId } : {}) }));

const reserve = (api: Api, items: unknown[], extra: Record<string, unknown> = {}) =>
  api("/reservations", {
    method: "POST",
    body: { location_uuid: salon.location.uuid, items, ...extra },
  });

/** One item of a haircut at `start` with `stafferId`. */
const cutAt = (start: string, stafferId?: string) => [
  { datetime_start: start, services: services([salon.cut.uuid], stafferId) },
];

const staffBook = (start: string, stafferId?: string, serviceId = salon.cut.uuid) =>
  salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: serviceId,
      ...(stafferId ? { staffer_uuid: stafferId } : {}),
      reserved_on: start,
      ...customer("+49 151 11111111"),
    },
  });

const calendarCalls = (headers: Headers) => {
  const match = /calendar;dur=[\d.]+;desc="(\d+) calls"/.exec(headers.get("server-timing") ?? "");
  return match?.[1] ? Number(match[1]) : 0;
};

async function createService(body: Record<string, unknown>) {
  const res = await salon.ws.api("/services", { method: "POST", body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uuid: string };
}

const liveHolds = async (reservationId: string) =>
  (
    await everyShard
      .prepare("select count(*) as n from calendar_entries where source_id = ?")
      .bind(reservationId)
      .first<{ n: number }>()
  )?.n ?? 0;

describe("hold caps per visitor (publishable key and client address)", () => {
  it("holds at most 3 live reservations; the 4th is 429 too_many_holds with Retry-After", async () => {
    const me = visitor();
    const made = [];
    for (let i = 0; i < 3; i++) {
      const res = await reserve(me, cutAt(at(0, 9 + i), staff[0]), { ttl_seconds: 120 + i });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      // The holder's count is read beside the planning read: no round trip of its own.
      expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(3);
      expect(res.body.held_by).toBe("publishable");
      made.push(res.body);
    }
    const fourth = await reserve(me, cutAt(at(0, 13), staff[0]));
    expect(fourth.status, JSON.stringify(fourth.body)).toBe(429);
    expect(fourth.body.code).toBe("too_many_holds");
    // Until the first of the three expires (120 s from now).
    const wait = Number(fourth.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(100);
    expect(wait).toBeLessThanOrEqual(120);
    // Refused before any calendar was asked.
    expect(calendarCalls(fourth.headers)).toBe(0);

    // Another visitor of the same page is not affected.
    expect((await reserve(visitor(), cutAt(at(0, 13), staff[1]))).status).toBe(201);
    // Releasing one gives the visitor room for one more.
    expect((await me(`/reservations/${made[0].uuid}`, { method: "DELETE" })).status).toBe(204);
    expect((await reserve(me, cutAt(at(0, 13), staff[0]))).status).toBe(201);
    expect((await reserve(me, cutAt(at(0, 14), staff[0]))).status).toBe(429);
  });

  it("holds fired at once by one visitor: exactly 3 succeed, the rest are 429, calendars in sync", async () => {
    const me = visitor();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        reserve(me, cutAt(at(1, 9 + Math.floor(i / 3)), staff[i % 3])),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses, JSON.stringify(answers.map((a) => a.body))).toEqual([
      201, 201, 201, 429, 429, 429, 429, 429, 429, 429,
    ]);
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(refused.body.code).toBe("too_many_holds");
    }
    const held = answers.filter((a) => a.status === 201).map((a) => a.body.uuid as string);
    const rows = await everyShard
      .prepare(
        "select id from reservations where workspace_id = ? and released_at is null and expires_at > ? and items like ?",
      )
      .bind(salon.ws.id, Date.now(), `%${weekday(1)}%`)
      .all<{ id: string }>();
    expect(rows.results.map((r) => r.id).sort()).toEqual([...held].sort());
    // Nothing of the refused ones stays in D1 or in a calendar.
    const entries = await everyShard
      .prepare(
        "select count(*) as n from calendar_entries where workspace_id = ? and kind = 'held' and starts_at >= ? and starts_at < ?",
      )
      .bind(salon.ws.id, Date.parse(at(1, 0)), Date.parse(at(2, 0)))
      .first<{ n: number }>();
    expect(entries?.n).toBe(3);
    await expectInSync(salon.ws.id, staff);
  });

  it("secret keys are not capped", async () => {
    for (let i = 0; i < 5; i++) {
      const res = await reserve(salon.ws.api, cutAt(at(2, 9 + i), staff[2]));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.held_by).toBe("secret");
    }
  });
});

describe("bounds of one publishable reservation", () => {
  it("4 services are held; 5 are 422 on the item's services, before any calendar call", async () => {
    const four = await reserve(visitor(), [
      { datetime_start: at(3, 9), services: services(Array(4).fill(salon.cut.uuid), staff[0]) },
    ]);
    expect(four.status, JSON.stringify(four.body)).toBe(201);

    const five = await reserve(visitor(), [
      { datetime_start: at(3, 13), services: services(Array(5).fill(salon.cut.uuid), staff[1]) },
    ]);
    expect(five.status, JSON.stringify(five.body)).toBe(422);
    expect(five.body.code).toBe("validation_failed");
    expect(Object.keys(five.body.errors)).toEqual(["items.0.services"]);
    expect(calendarCalls(five.headers)).toBe(0);

    // Counted over all items: 2 + 3 is five, reported on the item that goes past it.
    const spread = await reserve(visitor(), [
      { datetime_start: at(3, 13), services: services(Array(2).fill(salon.cut.uuid), staff[1]) },
      { datetime_start: at(3, 13), services: services(Array(3).fill(salon.cut.uuid), staff[2]) },
    ]);
    expect(spread.status, JSON.stringify(spread.body)).toBe(422);
    expect(Object.keys(spread.body.errors)).toEqual(["items.1.services"]);

    // A secret key may hold more (its bounds are the cart's).
    const staffHold = await reserve(salon.ws.api, [
      { datetime_start: at(3, 9), services: services(Array(5).fill(salon.cut.uuid), staff[2]) },
    ]);
    expect(staffHold.status, JSON.stringify(staffHold.body)).toBe(201);
  });

  it("4 hours of staff time are held; 4 hours and a minute are 422 on the service that does not fit", async () => {
    const long = await createService({ name: "Four hours", duration: 240, price: 10000 });
    const longer = await createService({
      name: "Four hours and a minute",
      duration: 241,
      price: 10000,
    });
    const short = await createService({ name: "Five minutes", duration: 5, price: 100 });

    const ok = await reserve(visitor(), [
      { datetime_start: at(4, 9), services: services([long.uuid], staff[0]) },
    ]);
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);

    const over = await reserve(visitor(), [
      { datetime_start: at(4, 9), services: services([longer.uuid], staff[1]) },
    ]);
    expect(over.status, JSON.stringify(over.body)).toBe(422);
    expect(Object.keys(over.body.errors)).toEqual(["items.0.services.0.service_uuid"]);
    expect(calendarCalls(over.headers)).toBe(0);

    const summed = await reserve(visitor(), [
      { datetime_start: at(4, 9), services: services([long.uuid, short.uuid], staff[1]) },
    ]);
    expect(summed.status, JSON.stringify(summed.body)).toBe(422);
    expect(Object.keys(summed.body.errors)).toEqual(["items.0.services.1.service_uuid"]);

    // Staff may hold longer.
    const staffHold = await reserve(salon.ws.api, [
      { datetime_start: at(4, 9), services: services([longer.uuid], staff[1]) },
    ]);
    expect(staffHold.status, JSON.stringify(staffHold.body)).toBe(201);
  });

  it("ttl_seconds 600 is held; 601 is 422 on ttl_seconds (a secret key may hold 900)", async () => {
    const ok = await reserve(visitor(), cutAt(at(5, 9), staff[0]), { ttl_seconds: 600 });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const over = await reserve(visitor(), cutAt(at(5, 11), staff[0]), { ttl_seconds: 601 });
    expect(over.status, JSON.stringify(over.body)).toBe(422);
    expect(Object.keys(over.body.errors)).toEqual(["ttl_seconds"]);
    expect(calendarCalls(over.headers)).toBe(0);
    const staffHold = await reserve(salon.ws.api, cutAt(at(5, 11), staff[0]), {
      ttl_seconds: 900,
    });
    expect(staffHold.status, JSON.stringify(staffHold.body)).toBe(201);
  });
});

/** A visitor's hold of two staffers at once (a cut with one, a colouring with the other). */
async function twoStafferHold(day: number, hh: number) {
  const me = visitor();
  const res = await reserve(me, [
    { datetime_start: at(day, hh), services: services([salon.cut.uuid], staff[0]) },
    { datetime_start: at(day, hh), services: services([salon.colour.uuid], staff[1]) },
  ]);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { me, id: res.body.uuid as string };
}

/** The reservation is gone everywhere: GET 404, booking it 409, no held time in D1. */
async function expectGone(me: Api, id: string, start: string) {
  expect((await me(`/reservations/${id}`)).status).toBe(404);
  expect((await salon.ws.api(`/reservations/${id}`)).status).toBe(404);
  const use = await me("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      reserved_on: start,
      reservation_uuid: id,
      ...customer(),
    },
  });
  expect(use.status, JSON.stringify(use.body)).toBe(409);
  expect(use.body.code).toBe("reservation_expired");
  expect(await liveHolds(id)).toBe(0);
}

const slotsOf = async (day: number, stafferId: string) => {
  const date = weekday(day);
  const res = await salon.ws.api(
    `/locations/${salon.location.uuid}/time-slots?service_uuid=${salon.cut.uuid}&staffer_uuid=${stafferId}&range_start=${date}&range_end=${date}`,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.dates[0]?.slots ?? []).map((s: { start: string }) => s.start) as string[];
};

/** A slot's start as search shows it: the location's local time (Berlin). */
const berlin = (iso: string) =>
  new Intl.DateTimeFormat("en-GB", {
    timeZone: "Europe/Berlin",
    hour: "2-digit",
    minute: "2-digit",
  }).format(new Date(iso));

describe("staff win over a publishable key's hold", () => {
  it("a secret-key booking over it succeeds and ends the whole hold (both staffers freed)", async () => {
    const day = 6;
    const { me, id } = await twoStafferHold(day, 10);
    expect(await slotsOf(day, staff[1] ?? "")).not.toContain(berlin(at(day, 10)));

    const booked = await staffBook(at(day, 10), staff[0]);
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    // Taking the hold over costs no hop on the answer's path: auth, one read, one write; one
    // claim (the other staffer's entries are dropped after the answer).
    expect(d1RoundTrips(booked.headers)).toBeLessThanOrEqual(3);
    expect(calendarCalls(booked.headers)).toBe(1);

    await expectGone(me, id, at(day, 10));
    // The other staffer's held time is free again; the booked one shows the booking.
    expect(await slotsOf(day, staff[1] ?? "")).toContain(berlin(at(day, 10)));
    expect(await slotsOf(day, staff[0] ?? "")).not.toContain(berlin(at(day, 10)));
    await expectInSync(salon.ws.id, staff);
  });

  it("a hold whose confirm never reached its calendars is taken over too (its write fenced)", async () => {
    const day = 24;
    const fences = async () =>
      (await everyShard.prepare("select count(*) as n from hold_fences").first<{ n: number }>())
        ?.n ?? 0;
    // The reservation commits, but neither calendar hears its confirm: its entries stay held
    // by its write, as while that write is in flight.
    failpoints.arm("calendar.confirm", () => true, 2);
    const { me, id } = await twoStafferHold(day, 10);
    await vi.waitFor(() => expect(failpoints.hits("calendar.confirm")).toBeGreaterThanOrEqual(2));
    failpoints.disarmAll();
    const before = await fences();

    const booked = await staffBook(at(day, 10), staff[0]);
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    // The reservation's write is fenced: it can never commit (again) after this.
    expect(await fences()).toBe(before + 1);
    await expectGone(me, id, at(day, 10));
    expect(await slotsOf(day, staff[1] ?? "")).toContain(berlin(at(day, 10)));
    await expectInSync(salon.ws.id, staff);
  });

  it("a hold whose write is still in flight is taken over: that write is fenced or ended, never left", async () => {
    for (const day of [25, 26, 27]) {
      const fences = async () =>
        (await everyShard.prepare("select count(*) as n from hold_fences").first<{ n: number }>())
          ?.n ?? 0;
      const before = await fences();
      const me = visitor();
      // The reservation waits after its claims, before its batch, until the staff booking
      // has claimed too (taking the reservation's held entry); then both batches race in D1.
      failpoints.meet("calendar.claimed", 2, 5_000);
      const claimed = failpoints.hits("calendar.claimed");
      const pending = reserve(me, [
        { datetime_start: at(day, 10), services: services([salon.cut.uuid], staff[0]) },
        { datetime_start: at(day, 10), services: services([salon.colour.uuid], staff[1]) },
      ]);
      await vi.waitFor(() => expect(failpoints.hits("calendar.claimed")).toBe(claimed + 1));
      const booked = await staffBook(at(day, 10), staff[0]);
      const held = await pending;
      failpoints.disarmAll();
      expect(booked.status, JSON.stringify(booked.body)).toBe(201);
      expect(await fences()).toBe(before + 1);
      if (held.status === 201) {
        // Its batch ran first: the staff batch ended it.
        await expectGone(me, held.body.uuid, at(day, 10));
      } else {
        // The staff batch ran first: the fence refused the reservation's batch.
        expect(held.status, JSON.stringify(held.body)).toBe(409);
        expect(held.body.code).toBe("slot_unavailable");
      }
      expect(await slotsOf(day, staff[1] ?? "")).toContain(berlin(at(day, 10)));
      await expectInSync(salon.ws.id, staff);
    }
  });

  it("a booking for anyone goes to a free staffer first and leaves the hold alone", async () => {
    const day = 7;
    const me = visitor();
    const hold = await reserve(me, cutAt(at(day, 10), staff[0]));
    expect(hold.status).toBe(201);
    const booked = await staffBook(at(day, 10));
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(booked.body.ordered_services[0].staffer_uuid).not.toBe(staff[0]);
    expect((await me(`/reservations/${hold.body.uuid}`)).status).toBe(200);
    await expectInSync(salon.ws.id, staff);
  });

  it("a cart, a reschedule and a change of staffer by staff take a publishable hold's time", async () => {
    const day = 8;
    // Cart.
    const cartHold = await reserve(visitor(), cutAt(at(day, 9), staff[0]));
    const cart = await salon.ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [{ datetime_start: at(day, 9), services: services([salon.cut.uuid], staff[0]) }],
        ...customer("+49 151 22222222"),
      },
    });
    expect(cart.status, JSON.stringify(cart.body)).toBe(201);
    expect((await salon.ws.api(`/reservations/${cartHold.body.uuid}`)).status).toBe(404);

    // Reschedule onto a held time.
    const moving = await staffBook(at(day, 13), staff[1]);
    expect(moving.status).toBe(201);
    const held = await reserve(visitor(), cutAt(at(day, 11), staff[1]));
    expect(held.status).toBe(201);
    const moved = await salon.ws.api(`/bookings/${moving.body.uuid}/reschedule`, {
      method: "PUT",
      body: { reserved_on: at(day, 11) },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await salon.ws.api(`/reservations/${held.body.uuid}`)).status).toBe(404);

    // Change staffer onto a held staffer.
    const other = await staffBook(at(day, 15), staff[1]);
    expect(other.status).toBe(201);
    const held2 = await reserve(visitor(), cutAt(at(day, 15), staff[2]));
    expect(held2.status).toBe(201);
    const changed = await salon.ws.api(`/bookings/${other.body.uuid}/staffer`, {
      method: "PUT",
      body: { staffer_uuid: staff[2] },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await salon.ws.api(`/reservations/${held2.body.uuid}`)).status).toBe(404);
    await expectInSync(salon.ws.id, staff);
  });

  it("a customer's own writes with the publishable key do not take another visitor's hold", async () => {
    const day = 9;
    const hold = await reserve(visitor(), cutAt(at(day, 10), staff[0]));
    expect(hold.status).toBe(201);
    const booked = await visitor()("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        staffer_uuid: staff[0],
        reserved_on: at(day, 10),
        ...customer("+49 151 33333333"),
      },
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(409);
    expect(booked.body.code).toBe("slot_unavailable");
    expect((await salon.ws.api(`/reservations/${hold.body.uuid}`)).status).toBe(200);
  });

  it("a staffer's blocked spot over it succeeds and ends the hold", async () => {
    const day = 10;
    const { me, id } = await twoStafferHold(day, 10);
    const blocked = await salon.ws.api(`/staffers/${staff[0]}/blocked-spots`, {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        starts_at: at(day, 8),
        ends_at: at(day, 16),
        comment: "sick day",
      },
    });
    expect(blocked.status, JSON.stringify(blocked.body)).toBe(201);
    await expectGone(me, id, at(day, 10));
    expect(await slotsOf(day, staff[1] ?? "")).toContain(berlin(at(day, 10)));
    await expectInSync(salon.ws.id, staff);
  });

  it("a resource block over it succeeds and ends the hold (its staffer's time too)", async () => {
    const day = 11;
    const room: TestResource = await createResource(salon.ws, salon.location.uuid, {
      name: "Treatment room",
      kind: "room",
    });
    const treatment = await createService({
      name: "Treatment",
      duration: 60,
      price: 5000,
      resource_uuids: [room.uuid],
    });
    const me = visitor();
    const hold = await reserve(me, [
      { datetime_start: at(day, 10), services: services([treatment.uuid], staff[2]) },
    ]);
    expect(hold.status, JSON.stringify(hold.body)).toBe(201);
    expect(hold.body.items[0].services[0].resource_uuids).toEqual([room.uuid]);

    const repair = await admin(`/workspaces/${salon.ws.id}/resources/${room.uuid}/blocked-spots`, {
      method: "POST",
      body: { starts_at: at(day, 9), ends_at: at(day, 12), comment: "repair" },
    });
    expect(repair.status, JSON.stringify(repair.body)).toBe(201);
    expect((await me(`/reservations/${hold.body.uuid}`)).status).toBe(404);
    expect(await liveHolds(hold.body.uuid)).toBe(0);
    expect(await slotsOf(day, staff[2] ?? "")).toContain(berlin(at(day, 10)));
    await expectInSync(salon.ws.id, staff);
    await expectUnitsInSync(salon.ws.id, [room]);
  });

  it("a secret key's hold is not taken: staff writes over it still get 409", async () => {
    const day = 12;
    const staffHold = await reserve(salon.ws.api, cutAt(at(day, 10), staff[0]));
    expect(staffHold.status).toBe(201);
    const booked = await staffBook(at(day, 10), staff[0]);
    expect(booked.status, JSON.stringify(booked.body)).toBe(409);
    expect(booked.body.code).toBe("slot_unavailable");
    const blocked = await salon.ws.api(`/staffers/${staff[0]}/blocked-spots`, {
      method: "POST",
      body: { location_uuid: salon.location.uuid, starts_at: at(day, 9), ends_at: at(day, 12) },
    });
    expect(blocked.status, JSON.stringify(blocked.body)).toBe(409);
    expect((await salon.ws.api(`/reservations/${staffHold.body.uuid}`)).status).toBe(200);

    // Beside it, a publishable hold on another staffer gives way to the same kind of write.
    const publicHold = await reserve(visitor(), cutAt(at(day, 10), staff[1]));
    expect(publicHold.status).toBe(201);
    expect((await staffBook(at(day, 10), staff[1])).status).toBe(201);
    expect((await salon.ws.api(`/reservations/${publicHold.body.uuid}`)).status).toBe(404);
    await expectInSync(salon.ws.id, staff);
  });

  it("a publishable hold being booked while staff book over it: one of the two, never both", async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 6; round++) {
      const day = 13 + round;
      const start = at(day, 10);
      const me = visitor();
      const hold = await reserve(me, cutAt(start, staff[0]));
      expect(hold.status, JSON.stringify(hold.body)).toBe(201);
      const use = () =>
        me("/bookings", {
          method: "POST",
          body: {
            location_uuid: salon.location.uuid,
            service_uuid: salon.cut.uuid,
            reserved_on: start,
            reservation_uuid: hold.body.uuid,
            ...customer(),
          },
        });
      // Both started together, in either order of sending.
      const [customerAnswer, staffAnswer] =
        round % 2 === 0
          ? await Promise.all([use(), staffBook(start, staff[0])])
          : await Promise.all([staffBook(start, staff[0]), use()]).then(
              ([s, c]) => [c, s] as const,
            );
      const pair = `${customerAnswer.status}/${staffAnswer.status}`;
      if (customerAnswer.status === 201) {
        expect(staffAnswer.status, pair).toBe(409);
        expect(staffAnswer.body.code).toBe("slot_unavailable");
        outcomes.add("customer first");
      } else {
        expect(customerAnswer.status, JSON.stringify(customerAnswer.body)).toBe(409);
        expect(customerAnswer.body.code).toBe("reservation_expired");
        expect(staffAnswer.status, JSON.stringify(staffAnswer.body)).toBe(201);
        outcomes.add("staff first");
      }
      const booked = await everyShard
        .prepare(
          "select count(*) as n from bookings where workspace_id = ? and start_at = ? and is_canceled = 0",
        )
        .bind(salon.ws.id, Date.parse(start))
        .first<{ n: number }>();
      expect(booked?.n).toBe(1);
      expect(await liveHolds(hold.body.uuid)).toBe(0);
      await expectInSync(salon.ws.id, [staff[0] ?? ""]);
    }
    expect(overlaps(await liveIntervals(salon.ws.id))).toEqual([]);
    expect(outcomes.size).toBeGreaterThan(0);
  });
});

describe("a publishable hold being booked and a staff write over it, in a forced order", () => {
  afterEach(() => failpoints.disarmAll());

  /** A visitor's hold on staffer 0 and the request that books it. */
  async function heldBy(day: number) {
    const start = at(day, 10);
    const me = visitor();
    const hold = await reserve(me, cutAt(start, staff[0]));
    expect(hold.status, JSON.stringify(hold.body)).toBe(201);
    const use = () =>
      me("/bookings", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          service_uuid: salon.cut.uuid,
          reserved_on: start,
          reservation_uuid: hold.body.uuid,
          ...customer(),
        },
      });
    return { start, id: hold.body.uuid as string, use };
  }

  /** Starts `request`, and lets it go on only once `meanwhile` is done (it waits after its read). */
  async function heldAfterRead<T>(
    point: string,
    request: () => Promise<T>,
    meanwhile: () => Promise<unknown>,
  ) {
    failpoints.meet(point, 2, 10_000);
    const before = failpoints.hits(point);
    const pending = request();
    await vi.waitFor(() => expect(failpoints.hits(point)).toBe(before + 1), { timeout: 5_000 });
    await meanwhile();
    await rendezvous(point);
    return pending;
  }

  it("staff book first while the customer's booking had read its hold as live: staff 201, customer 409 reservation_expired", async () => {
    for (const day of [20, 21]) {
      const { start, id, use } = await heldBy(day);
      let staffAnswer: Awaited<ReturnType<typeof staffBook>> | undefined;
      const customerAnswer = await heldAfterRead(
        "booking.create.reservation_read",
        use,
        async () => {
          staffAnswer = await staffBook(start, staff[0]);
        },
      );
      expect(staffAnswer?.status, JSON.stringify(staffAnswer?.body)).toBe(201);
      expect(customerAnswer.status, JSON.stringify(customerAnswer.body)).toBe(409);
      expect(customerAnswer.body.code).toBe("reservation_expired");
      expect(await liveHolds(id)).toBe(0);
      await expectInSync(salon.ws.id, [staff[0] ?? ""]);
    }
  });

  it("the customer books first while staff had read the hold: customer 201, staff 409 slot_unavailable", async () => {
    for (const day of [22, 23]) {
      const { start, id, use } = await heldBy(day);
      let customerAnswer: Awaited<ReturnType<typeof use>> | undefined;
      const staffAnswer = await heldAfterRead(
        "booking.create.read",
        () => staffBook(start, staff[0]),
        async () => {
          customerAnswer = await use();
        },
      );
      expect(customerAnswer?.status, JSON.stringify(customerAnswer?.body)).toBe(201);
      expect(staffAnswer.status, JSON.stringify(staffAnswer.body)).toBe(409);
      expect(staffAnswer.body.code).toBe("slot_unavailable");
      expect(await liveHolds(id)).toBe(0);
      await expectInSync(salon.ws.id, [staff[0] ?? ""]);
    }
    expect(overlaps(await liveIntervals(salon.ws.id))).toEqual([]);
  });
});

describe("GET /reservations (secret keys list holds)", () => {
  let other: Salon;
  let listed: { uuid: string; stafferId: string }[];

  beforeAll(async () => {
    other = await createSalon(1);
    const otherPk = await createPublishableKey(other.ws);
    // Another workspace's holds, which must never show.
    for (let i = 0; i < 2; i++) {
      const res = await otherPk.api("/reservations", {
        method: "POST",
        headers: { "cf-connecting-ip": "203.0.113.200" },
        body: {
          location_uuid: other.location.uuid,
          items: [
            {
              datetime_start: at(30, 9 + i),
              services: [{ service_uuid: other.cut.uuid }],
            },
          ],
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    listed = [];
    for (const [i, stafferId] of [staff[0], staff[1], staff[1]].entries()) {
      const res = await reserve(
        i === 0 ? salon.ws.api : visitor(),
        cutAt(at(30, 9 + i), stafferId),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      listed.push({ uuid: res.body.uuid, stafferId: stafferId ?? "" });
    }
  });

  const list = (query: string, api = salon.ws.api) => api(`/reservations${query}`);

  it("lists live holds of a location, filtered by staffer, in pages, never another workspace's", async () => {
    const all = await list(`?location_uuid=${salon.location.uuid}&per_page=100`);
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    const ids = all.body.data.map((r: { uuid: string }) => r.uuid);
    for (const r of listed) expect(ids).toContain(r.uuid);
    const otherIds = await everyShard
      .prepare("select id from reservations where workspace_id = ?")
      .bind(other.ws.id)
      .all<{ id: string }>();
    for (const r of otherIds.results) expect(ids).not.toContain(r.id);
    const mine = all.body.data.filter((r: { uuid: string }) =>
      listed.some((l) => l.uuid === r.uuid),
    );
    expect(mine.map((r: { held_by: string }) => r.held_by)).toEqual([
      "secret",
      "publishable",
      "publishable",
    ]);

    const byStaffer = await list(`?staffer_uuid=${staff[1]}&per_page=100`);
    expect(byStaffer.status).toBe(200);
    // Each listed reservation holds some time of that staffer.
    for (const r of byStaffer.body.data as {
      items: { services: { staffer_uuid: string }[] }[];
    }[]) {
      expect(r.items.some((i) => i.services.some((s) => s.staffer_uuid === staff[1]))).toBe(true);
    }
    const byStafferIds = byStaffer.body.data.map((r: { uuid: string }) => r.uuid);
    expect(byStafferIds).toContain(listed[1]?.uuid);
    expect(byStafferIds).not.toContain(listed[0]?.uuid);

    // Pages: per_page 1 walks them one by one, in a stable order.
    const first = await list(`?location_uuid=${salon.location.uuid}&per_page=1`);
    expect(first.body.data).toHaveLength(1);
    expect(first.body.meta.total).toBe(all.body.meta.total);
    expect(first.body.links.next).not.toBeNull();
    const second = await list(`?location_uuid=${salon.location.uuid}&per_page=1&page=2`);
    expect(second.body.data[0].uuid).toBe(all.body.data[1].uuid);

    // Another workspace's location lists nothing here; the other workspace sees its own only.
    const foreign = await list(`?location_uuid=${other.location.uuid}`);
    expect(foreign.body.data).toEqual([]);
    const theirs = await other.ws.api("/reservations?per_page=100");
    expect(theirs.body.data.map((r: { uuid: string }) => r.uuid).sort()).toEqual(
      otherIds.results.map((r) => r.id).sort(),
    );
  });

  it("drops released holds from the list; a secret key may DELETE a visitor's hold", async () => {
    const target = listed[2]?.uuid ?? "";
    const released = await salon.ws.api(`/reservations/${target}`, { method: "DELETE" });
    expect(released.status).toBe(204);
    expect((await salon.ws.api(`/reservations/${target}`)).status).toBe(404);
    const after = await list(`?staffer_uuid=${staff[1]}&per_page=100`);
    expect(after.body.data.map((r: { uuid: string }) => r.uuid)).not.toContain(target);
    // Another workspace's secret key cannot release it (404, as if it did not exist).
    expect(
      (await other.ws.api(`/reservations/${listed[1]?.uuid}`, { method: "DELETE" })).status,
    ).toBe(404);
    await expectInSync(salon.ws.id, staff);
  });

  it("is refused to a publishable key (403 forbidden)", async () => {
    const res = await list("", visitor());
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("forbidden");
  });

  it("rejects bad filters with 422", async () => {
    const res = await list("?staffer_uuid=nope");
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(["staffer_uuid"]);
  });
});
