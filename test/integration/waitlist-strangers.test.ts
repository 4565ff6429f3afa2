import { beforeEach, describe, expect, it, vi } from "vitest";
import { PUBLIC_OFFERS } from "../../src/waitlist/rules";
import { PUBLIC } from "../helpers/http";
import type { Client } from "../helpers/http";
import { send } from "../helpers/http";
import { createMessagingSalon, fromAddress } from "../helpers/messages";
import type { Salon } from "../helpers/salon";
import {
  cancel,
  entryOnce,
  fullDay,
  join,
  local,
  offered,
  offerMessages,
  offerTokenIn,
  plusDays,
  runDesk,
  WAIT_DAY,
} from "../helpers/waitlist";
import { everyShard } from "../helpers/every-shard";

/**
 * A stranger holding the widget's key and rotating client addresses, through
 * the waitlist: a join is shaped like a widget hold, its offers are that
 * visitor's holds, a booking through an offer is that visitor's booking, and
 * the offers a stranger causes are bounded per visitor and per workspace.
 */
vi.setConfig({ testTimeout: 60_000 });

const DAY = WAIT_DAY;
let salon: Salon;
let pk: Client;

beforeEach(async () => {
  ({ salon, pk } = await createMessagingSalon(1));
});

let n = 0;
const phone = () => `+49 151 7${String(++n).padStart(7, "0")}`;
/** A /64 of its own per call: the stranger's rotation. */
const address = () => `2001:db8:${(++n).toString(16)}:1::1`;

const service = async (name: string, duration: number) => {
  const res = await salon.ws.api("/services", {
    method: "POST",
    body: { name, duration, price: 1000 },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.uuid as string;
};

const hold = (api: Client, start: string, serviceId = salon.cut.uuid) =>
  api("/reservations", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      items: [{ datetime_start: start, services: [{ service_uuid: serviceId }] }],
    },
  });

const statusOf = async (id: string) =>
  (await salon.ws.api(`/waitlist/${id}`)).body.status as string;

describe("a publishable join is shaped like a publishable hold", () => {
  it("5 services of 90 minutes: 422 with the widget's key (on services), 201 with staff's", async () => {
    const five = Array.from({ length: 5 }, () => ({ service_uuid: salon.colour.uuid }));
    const res = await join(salon, fromAddress(pk, address()), {
      services: five,
      customer_phone: phone(),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect(Object.keys(res.body.errors)).toEqual(["services"]);
    expect(res.body.errors.services[0]).toContain("at most 4 services");
    const staff = await join(salon, salon.ws.api, { services: five, customer_phone: phone() });
    expect(staff.status, JSON.stringify(staff.body)).toBe(201);
    const rows = await everyShard
      .prepare("select count(*) as n from waitlist_entries where workspace_id = ?")
      .bind(salon.ws.id)
      .first<{ n: number }>();
    expect(rows?.n).toBe(1);
  });

  it("4 hours of staff time is the most: 240 minutes join, 245 are 422 on the service past it", async () => {
    const sixty = await service("Sixty", 60);
    const sixtyFive = await service("Sixty-five", 65);
    const visitor = fromAddress(pk, address());
    const most = await join(salon, visitor, {
      services: [sixty, sixty, sixty, sixty].map((id) => ({ service_uuid: id })),
      customer_phone: phone(),
    });
    expect(most.status, JSON.stringify(most.body)).toBe(201);
    const over = await join(salon, visitor, {
      services: [sixty, sixty, sixty, sixtyFive].map((id) => ({ service_uuid: id })),
      customer_phone: phone(),
    });
    expect(over.status, JSON.stringify(over.body)).toBe(422);
    expect(over.body.code).toBe("validation_failed");
    expect(Object.keys(over.body.errors)).toEqual(["services.3.service_uuid"]);
    expect(over.body.errors["services.3.service_uuid"][0]).toContain(
      "at most 4 hours of staff time",
    );
  });
});

describe("offers count as the joining visitor's live holds", () => {
  it("an offer is one of the visitor's 3 holds: the next reservation is 429 too_many_holds", async () => {
    const stranger = fromAddress(pk, address());
    const booking = await fullDay(salon, DAY);
    const tuesday = plusDays(DAY, 1);
    for (const hhmm of ["09:00", "11:00"]) {
      const res = await hold(stranger, local(tuesday, hhmm));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const entry = await join(salon, stranger, { customer_phone: phone() });
    expect(entry.status, JSON.stringify(entry.body)).toBe(201);
    await cancel(salon, booking);
    const offer = await offered(salon, entry.body.uuid);
    const held = await salon.ws.api(`/reservations/${offer.offer.reservation_uuid}`);
    expect(held.body.held_by).toBe("publishable");

    const fourth = await hold(stranger, local(tuesday, "13:00"));
    expect(fourth.status, JSON.stringify(fourth.body)).toBe(429);
    expect(fourth.body.code).toBe("too_many_holds");
  });

  it("a visitor holding 3 may join, but the desk passes it by (it keeps waiting) for the next entry", async () => {
    const stranger = fromAddress(pk, address());
    const booking = await fullDay(salon, DAY);
    const tuesday = plusDays(DAY, 1);
    for (const hhmm of ["09:00", "11:00", "13:00"]) {
      const res = await hold(stranger, local(tuesday, hhmm));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const first = await join(salon, stranger, { customer_phone: phone() });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const second = await join(salon, fromAddress(pk, address()), { customer_phone: phone() });
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    await cancel(salon, booking);
    await offered(salon, second.body.uuid);
    await runDesk(salon);
    expect(await statusOf(first.body.uuid)).toBe("waiting");
  });

  it("10 addresses × 3 entries (each address already holding 2): at most one offer each", async () => {
    const colour = salon.colour.uuid;
    const strangers = Array.from({ length: 10 }, () => fromAddress(pk, address()));
    // Their reservations the week after the entries' window: 6 starts a day.
    const starts = ["09:00", "10:30", "12:00", "13:30", "15:00", "16:30"];
    let slot = 0;
    for (const stranger of strangers) {
      for (let i = 0; i < 2; i++, slot++) {
        const day = plusDays(DAY, 7 + Math.floor(slot / 6));
        const res = await hold(stranger, local(day, starts[slot % 6] ?? ""), colour);
        expect(res.status, JSON.stringify(res.body)).toBe(201);
      }
    }
    const ids: string[][] = [];
    for (const stranger of strangers) {
      const mine: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await join(salon, stranger, {
          services: [{ service_uuid: colour }],
          customer_phone: phone(),
          from: DAY,
          to: plusDays(DAY, 4),
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        mine.push(res.body.uuid);
      }
      ids.push(mine);
    }
    await runDesk(salon);
    await runDesk(salon);
    const offers = await Promise.all(
      ids.map(async (mine) => {
        const statuses = await Promise.all(mine.map(statusOf));
        return statuses.filter((s) => s === "offered").length;
      }),
    );
    expect(offers).toEqual(Array(10).fill(1));
    // Each visitor is at its 3 holds: no reservation more.
    const more = await hold(strangers[0] as Client, local(plusDays(DAY, 14), "09:00"), colour);
    expect(more.status).toBe(429);
  });
});

describe("a booking through an offer is the joining visitor's booking", () => {
  it("5 widget bookings, then two offers booked from two other addresses: the 7th booking of the day is 429", async () => {
    const stranger = fromAddress(pk, address());
    const later = plusDays(DAY, 7);
    for (const hhmm of ["09:00", "10:00", "11:00", "12:00", "13:00"]) {
      const res = await stranger("/bookings", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          service_uuid: salon.cut.uuid,
          reserved_on: local(later, hhmm),
          customer_phone: phone(),
          customer_first_name: "Stranger",
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const tuesday = plusDays(DAY, 1);
    const bookings = [await fullDay(salon, DAY), await fullDay(salon, tuesday)];
    const entries: string[] = [];
    for (const day of [DAY, tuesday]) {
      const res = await join(salon, stranger, { customer_phone: phone(), from: day, to: day });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      entries.push(res.body.uuid);
    }
    for (const b of bookings) await cancel(salon, b);
    const tokens: string[] = [];
    for (const id of entries) {
      await offered(salon, id);
      tokens.push(offerTokenIn((await offerMessages(id))[0]?.body ?? ""));
    }
    const book = (token: string) =>
      send(`${PUBLIC}/waitlist-offers/${token}/book`, {
        method: "POST",
        headers: { "cf-connecting-ip": address() },
        body: {},
      });
    const sixth = await book(tokens[0] ?? "");
    expect(sixth.status, JSON.stringify(sixth.body)).toBe(201);
    const seventh = await book(tokens[1] ?? "");
    expect(seventh.status, JSON.stringify(seventh.body)).toBe(429);
    expect(seventh.body.code).toBe("too_many_bookings");
    expect(await statusOf(entries[1] ?? "")).toBe("offered");
  });
});

describe("offers a stranger causes are bounded", () => {
  it(`join, offer, delete from one address: ${PUBLIC_OFFERS.perVisitor} offers a day, then the entry waits`, async () => {
    const stranger = fromAddress(pk, address());
    const made: string[] = [];
    for (let i = 0; i < PUBLIC_OFFERS.perVisitor + 1; i++) {
      const res = await join(salon, stranger, { customer_phone: phone() });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      await runDesk(salon);
      const status = await statusOf(res.body.uuid);
      if (i < PUBLIC_OFFERS.perVisitor) {
        expect(status, `offer ${i + 1}`).toBe("offered");
        made.push(res.body.uuid);
        const gone = await stranger(`/waitlist/${res.body.uuid}`, { method: "DELETE" });
        expect(gone.status).toBe(204);
      } else {
        expect(status).toBe("waiting");
        expect(await offerMessages(res.body.uuid)).toEqual([]);
      }
    }
    expect(made).toHaveLength(PUBLIC_OFFERS.perVisitor);
  });

  it("rotating addresses: the workspace's daily budget of offers to widget entries is the bound", async () => {
    // The workspace has made all but one of its day's offers to widget entries already.
    const now = Date.now();
    await everyShard.batch(
      Array.from({ length: PUBLIC_OFFERS.perWorkspace - 1 }, (_, i) =>
        everyShard
          .prepare(
            "insert into waitlist_offers (workspace_id, entry_id, visitor, created_at, expires_at) values (?, ?, ?, ?, ?)",
          )
          .bind(salon.ws.id, crypto.randomUUID(), `someone-${i}`, now, now + 86_400_000),
      ),
    );
    const first = await join(salon, fromAddress(pk, address()), { customer_phone: phone() });
    await runDesk(salon);
    expect(await statusOf(first.body.uuid)).toBe("offered");
    const second = await join(salon, fromAddress(pk, address()), { customer_phone: phone() });
    await runDesk(salon);
    expect(await statusOf(second.body.uuid)).toBe("waiting");
    // Staff's entries are not a stranger's: the budget does not hold them back.
    const staffs = await join(salon, salon.ws.api, { customer_phone: phone() });
    await entryOnce(salon, staffs.body.uuid, (e) => e.status === "offered");
  });

  it("a stranger's 3 entries that never fit do not lock the phone's owner out of the widget", async () => {
    const victim = phone();
    const stranger = fromAddress(pk, address());
    for (let i = 0; i < 3; i++) {
      const res = await join(salon, stranger, {
        customer_phone: victim,
        times: [{ start: "03:00", end: "03:15" }],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const owner = await join(salon, fromAddress(pk, address()), { customer_phone: victim });
    expect(owner.status, JSON.stringify(owner.body)).toBe(201);
    // The stranger's own cap still holds.
    const fourth = await join(salon, stranger, { customer_phone: victim });
    expect(fourth.status).toBe(409);
    expect(fourth.body.code).toBe("too_many_entries");
  });
});
