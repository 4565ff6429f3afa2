import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { manageToken } from "../../src/bookings/manage-link";
import { failpoints } from "../../src/platform/failpoints";
import { everyShard } from "../helpers/every-shard";
import {
  createCustomer,
  createPackageTemplate,
  issueDirect,
  issueOne,
  type TestPackage,
} from "../helpers/packages";
import { PUBLIC, send } from "../helpers/http";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import { createShop, openOrder, payOrder } from "../helpers/shop";

/**
 * Review of packages (races and limits): credits held by one request in a
 * fixed number of D1 statements whatever their number (a series of 52
 * credit-paid occurrences, a cart of 100 credit-paid services); the guard
 * refusing a request whose uses of one credit together exceed what is left
 * when it writes; package-credit-used for a membership holding many live
 * credits; the manage page at its 20 packages; a retry under one
 * Idempotency-Key; a replace of a credit-paid service racing a cancel.
 */

let salon: Salon;
let anna: string;
const ANNA = "+49 151 23456789";
let fringe: { uuid: string; price: number };
let yearly: TestPackage;

const DAY = 86_400_000;
let week = 0;
/** A fresh Monday for each test, weeks ahead (inside the packages' validity). */
const nextMonday = () => {
  week += 1;
  const today = Math.floor(Date.now() / DAY) * DAY;
  const toMonday = (7 - ((today / DAY + 3) % 7)) % 7 || 7;
  return new Date(today + (toMonday + week * 7) * DAY).toISOString().slice(0, 10);
};
const plusDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

const creditsOf = (packageId: string) =>
  everyShard
    .prepare(
      "select total, used, reserved from customer_package_credits where customer_package_id = ? order by position",
    )
    .bind(packageId)
    .all<{ total: number; used: number; reserved: number }>()
    .then((r) => r.results);
const usesOf = (packageId: string) =>
  everyShard
    .prepare(
      "select state, count(*) as n from package_credit_uses where customer_package_id = ? group by state",
    )
    .bind(packageId)
    .all<{ state: string; n: number }>()
    .then((r) => Object.fromEntries(r.results.map((u) => [u.state, u.n])));
const bookingsOf = async () =>
  Number(
    (
      await everyShard
        .prepare("select count(*) as n from bookings where workspace_id = ?")
        .bind(salon.ws.id)
        .first<{ n: number }>()
    )?.n ?? 0,
  );

/** A package of one credit of `count` for the given services, issued to Anna. */
async function packageOf(services: string[], count: number) {
  const template = await createPackageTemplate(salon.ws, {
    name: `${count} visits`,
    valid_days: 1095,
    credits: [{ service_uuids: services, count }],
  });
  return issueOne(salon.ws, { packageUuid: template.uuid, customerUuid: anna });
}

const series = (date: string, pkg: string, count: number, hhmm = "10:00") =>
  salon.ws.api("/bookings/series", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      reserved_on: at(hhmm, date),
      recurrence: { rule: `FREQ=WEEKLY;COUNT=${count}` },
      customer_package_uuid: pkg,
      ...customer(ANNA),
    },
  });

/** Anna's cut at 10:00 next Monday paid by `pkg`'s credit (201 asserted): the booking's uuid. */
async function cutWithCredit(pkg: string): Promise<string> {
  const booked = await salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      reserved_on: at("10:00", nextMonday()),
      customer_package_uuid: pkg,
      ...customer(ANNA),
    },
  });
  expect(booked.status, JSON.stringify(booked.body).slice(0, 300)).toBe(201);
  return booked.body.uuid as string;
}

afterEach(() => failpoints.disarmAll());

beforeAll(async () => {
  salon = await createSalon(3);
  anna = await createCustomer(salon.ws, ANNA);
  const created = await salon.ws.api("/services", {
    method: "POST",
    body: { name: "Fringe", duration: 10, price: 900 },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  fringe = created.body;
  yearly = await createPackageTemplate(salon.ws, {
    name: "A year of cuts",
    valid_days: 1095,
    credits: [{ service_uuids: [salon.cut.uuid], count: 52 }],
  });
});

describe("credits at the request's maximum", () => {
  it("a series of 52 occurrences takes 52 credits (was 422 request_too_large: 3 statements each); its cancel gives all back", async () => {
    const pkg = await issueOne(salon.ws, { packageUuid: yearly.uuid, customerUuid: anna });
    // A year ahead at most: every occurrence starts before the credit expires.
    const res = await series(nextMonday(), pkg, 52);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(201);
    expect(res.body.bookings).toHaveLength(52);
    for (const b of res.body.bookings) expect(b.ordered_services[0]).toMatchObject({ price: 0 });
    expect(await creditsOf(pkg)).toEqual([{ total: 52, used: 0, reserved: 52 }]);
    expect(await usesOf(pkg)).toEqual({ reserved: 52 });

    const cancelled = await salon.ws.api(`/series/${res.body.series.uuid}/cancel`, {
      method: "PUT",
      body: {},
    });
    expect(cancelled.status, JSON.stringify(cancelled.body).slice(0, 300)).toBe(200);
    expect(await creditsOf(pkg)).toEqual([{ total: 52, used: 0, reserved: 0 }]);
    expect(await usesOf(pkg)).toEqual({ returned: 52 });
  });

  it("a cart of 10 items of 10 services, each paid by a credit: 100 held in one write", async () => {
    const pkg = await packageOf([fringe.uuid], 100);
    const monday = nextMonday();
    week += 1;
    // Ten weekdays over two weeks, ten 10-minute services each.
    const days = [0, 1, 2, 3, 4, 7, 8, 9, 10, 11].map((d) => plusDays(monday, d));
    const before = await bookingsOf();
    const res = await salon.ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: days.map((d) => ({
          datetime_start: at("08:00", d),
          services: Array.from({ length: 10 }, () => ({
            service_uuid: fringe.uuid,
            customer_package_uuid: pkg,
          })),
        })),
        ...customer(ANNA),
      },
    });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(201);
    expect((await bookingsOf()) - before).toBe(10);
    expect(await creditsOf(pkg)).toEqual([{ total: 100, used: 0, reserved: 100 }]);
    expect(await usesOf(pkg)).toEqual({ reserved: 100 });
  });
});

describe("one write holding several of one credit, under concurrency", () => {
  it("two series racing for the last 4 credits (3 each): one 201, one 409 package_unavailable, nothing below zero", async () => {
    const pkg = await packageOf([salon.cut.uuid], 4);
    const date = nextMonday();
    const before = await bookingsOf();
    failpoints.meet("series.create.read", 2, 5_000);
    const answers = await Promise.all([
      series(date, pkg, 3, "08:00"),
      series(date, pkg, 3, "12:00"),
    ]);
    expect(
      answers.map((a) => a.status).sort(),
      JSON.stringify(answers.map((a) => a.body)).slice(0, 500),
    ).toEqual([201, 409]);
    expect(answers.find((a) => a.status === 409)?.body.code).toBe("package_unavailable");
    expect(await creditsOf(pkg)).toEqual([{ total: 4, used: 0, reserved: 3 }]);
    expect(await usesOf(pkg)).toEqual({ reserved: 3 });
    expect((await bookingsOf()) - before).toBe(3);
  });

  it("a cart taking 2 of one credit and a booking taking 1, with 2 left: exactly one wins", async () => {
    const pkg = await packageOf([fringe.uuid], 2);
    const date = nextMonday();
    const before = await bookingsOf();
    failpoints.meet("booking.create.read", 2, 5_000);
    const [cart, single] = await Promise.all([
      salon.ws.api("/bookings/cart", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          items: [
            {
              datetime_start: at("08:00", date),
              services: [
                { service_uuid: fringe.uuid, customer_package_uuid: pkg },
                { service_uuid: fringe.uuid, customer_package_uuid: pkg },
              ],
            },
          ],
          ...customer(ANNA),
        },
      }),
      salon.ws.api("/bookings", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          service_uuid: fringe.uuid,
          reserved_on: at("12:00", date),
          customer_package_uuid: pkg,
          ...customer(ANNA),
        },
      }),
    ]);
    const statuses = [cart.status, single.status];
    expect(statuses.sort(), JSON.stringify([cart.body, single.body]).slice(0, 500)).toEqual([
      201, 409,
    ]);
    const winner = cart.status === 201 ? 2 : 1;
    expect(await creditsOf(pkg)).toEqual([{ total: 2, used: 0, reserved: winner }]);
    expect(await usesOf(pkg)).toEqual({ reserved: winner });
    expect((await bookingsOf()) - before).toBe(1);
  });
});

describe("a membership holding many live credits (periods whose credits outlast the month)", () => {
  it("a booking paid by it completes, and package-credit-used shows every live credit as the batch leaves it", async () => {
    const template = await createPackageTemplate(salon.ws, {
      name: "Monthly, a year to use",
      valid_days: 365,
      renews: { every: "month" },
      credits: Array.from({ length: 10 }, () => ({ service_uuids: [salon.cut.uuid], count: 1 })),
    });
    const pkg = await issueOne(salon.ws, { packageUuid: template.uuid, customerUuid: anna });
    // Periods 2 to 4 renewed: their credits live on beside the first period's (40 in all).
    const expires = Date.now() + 400 * DAY;
    for (let period = 2; period <= 4; period++) {
      for (let position = 0; position < 10; position++) {
        await everyShard
          .prepare(
            "insert into customer_package_credits (id, workspace_id, customer_package_id, period, position, service_ids, total, used, reserved, expires_at) values (?, ?, ?, ?, ?, ?, 1, 0, 0, ?)",
          )
          .bind(
            crypto.randomUUID(),
            salon.ws.id,
            pkg,
            period,
            position,
            JSON.stringify([salon.cut.uuid]),
            expires,
          )
          .run();
      }
    }
    const bookingId = await cutWithCredit(pkg);
    const done = await salon.ws.api(`/bookings/${bookingId}/status/complete`, {
      method: "PUT",
      body: { paid_amount: 0 },
    });
    expect(done.status, JSON.stringify(done.body).slice(0, 300)).toBe(200);
    const event = await everyShard
      .prepare(
        "select payload from events where workspace_id = ? and type = 'package-credit-used' and json_extract(payload, '$.booking_uuid') = ?",
      )
      .bind(salon.ws.id, bookingId)
      .first<{ payload: string }>();
    const credits = JSON.parse(event?.payload ?? "{}").customer_package.credits as {
      used: number;
      reserved: number;
      total: number;
    }[];
    expect(credits).toHaveLength(40);
    // The soonest to expire (the first period's first credit) paid; every count is a number.
    expect(credits[0]).toMatchObject({
      period: 1,
      service_uuids: [salon.cut.uuid],
      total: 1,
      used: 1,
      reserved: 0,
    });
    expect(credits.slice(1).every((c) => c.used === 0 && c.reserved === 0)).toBe(true);
  });
});

describe("the manage page of a customer holding more packages than it shows", () => {
  it("lists the newest 20 of 21 live packages of 10 credits each, in the view's one read", async () => {
    const phone = "+49 151 77777777";
    const many = await createCustomer(salon.ws, phone);
    const template = await createPackageTemplate(salon.ws, {
      name: "Ten of each",
      valid_days: 365,
      credits: Array.from({ length: 10 }, () => ({
        service_uuids: [salon.cut.uuid, salon.colour.uuid, fringe.uuid],
        count: 10,
      })),
    });
    await issueDirect(salon.ws, { packageUuid: template.uuid, customerUuid: many, quantity: 21 });
    const booked = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: at("16:00", nextMonday()),
        ...customer(phone),
      },
    });
    expect(booked.status, JSON.stringify(booked.body).slice(0, 300)).toBe(201);
    const token = await manageToken(env, {
      id: booked.body.uuid,
      workspaceId: salon.ws.id,
      customerId: many,
      endAt: Date.parse(booked.body.end_time),
    });
    const res = await send(`${PUBLIC}/manage/${token}`, {
      headers: { "cf-connecting-ip": "198.51.100.77" },
    });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body.packages).toHaveLength(20);
    for (const p of res.body.packages) {
      expect(p.credits).toHaveLength(10);
      expect(p.credits[0].service_names).toEqual(["Haircut", "Colouring", "Fringe"]);
      // A manage page shows no price, order or customer.
      expect(Object.keys(p).sort()).toEqual(["credits", "expires_at", "name", "status", "uuid"]);
    }
  });
});

describe("a booking with a credit retried under one Idempotency-Key", () => {
  it("holds one credit: a retry after the answer replays it, two at once act once", async () => {
    const pkg = await packageOf([salon.cut.uuid], 5);
    const date = nextMonday();
    const booking = (key: string, hhmm: string) =>
      salon.ws.api("/bookings", {
        method: "POST",
        headers: { "idempotency-key": key },
        body: {
          location_uuid: salon.location.uuid,
          service_uuid: salon.cut.uuid,
          reserved_on: at(hhmm, date),
          customer_package_uuid: pkg,
          ...customer(ANNA),
        },
      });
    const key = crypto.randomUUID();
    const first = await booking(key, "08:00");
    expect(first.status, JSON.stringify(first.body).slice(0, 300)).toBe(201);
    const again = await booking(key, "08:00");
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.uuid).toBe(first.body.uuid);
    expect(await creditsOf(pkg)).toEqual([{ total: 5, used: 0, reserved: 1 }]);

    const racing = crypto.randomUUID();
    const both = await Promise.all([booking(racing, "12:00"), booking(racing, "12:00")]);
    const made = new Set(both.filter((r) => r.status === 201).map((r) => r.body.uuid));
    expect(made.size, JSON.stringify(both.map((r) => r.body)).slice(0, 400)).toBe(1);
    for (const r of both.filter((x) => x.status !== 201)) expect(r.body.code).toBe("conflict");
    expect(await creditsOf(pkg)).toEqual([{ total: 5, used: 0, reserved: 2 }]);
    expect(await usesOf(pkg)).toEqual({ reserved: 2 });
  });
});

describe("a replace of a credit-paid service and a cancel racing", () => {
  it("the replace first (credit kept) then the cancel, or the cancel alone: the credit given back once", async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 4; round++) {
      const pkg = await packageOf([salon.cut.uuid, salon.colour.uuid], 3);
      const id = await cutWithCredit(pkg);
      const replace = () =>
        salon.ws.api(`/bookings/${id}/services`, {
          method: "PUT",
          body: { service_uuid: salon.colour.uuid },
        });
      const cancel = () =>
        salon.ws.api(`/bookings/${id}/status/cancel`, { method: "PUT", body: {} });
      // Both read the open booking; the second to write is refused by its version and replans.
      failpoints.meet("booking.change.before_write", 2, 5_000);
      const [r, c] =
        round % 2 === 0
          ? await Promise.all([replace(), cancel()])
          : await Promise.all([cancel(), replace()]).then(([x, y]) => [y, x] as const);
      // A cancel always ends it; a replace after it is refused (the booking is closed).
      expect(c.status, JSON.stringify(c.body).slice(0, 300)).toBe(200);
      if (r.status === 200) outcomes.add("replaced, then cancelled");
      else {
        outcomes.add("cancelled, replace refused");
        expect(r.body.code).toBe("booking_not_replaceable");
      }
      expect(await creditsOf(pkg)).toEqual([{ total: 3, used: 0, reserved: 0 }]);
      expect(await usesOf(pkg)).toEqual({ returned: 1 });
    }
    console.log(`replace vs cancel: ${[...outcomes].join("; ")}`);
    expect(failpoints.hits("booking.guard_refused")).toBeGreaterThan(0);
  });
});

describe("an order at its 20 package units of 10 credits each", () => {
  it("pays (20 packages, 200 credits, 20 events in the paying batch) and refunds (all 20 void)", async () => {
    const shop = await createShop();
    const buyer = await createCustomer(shop.ws, "+49 151 55555555");
    const tens = await createPackageTemplate(shop.ws, {
      name: "Ten lines",
      price: 100,
      credits: Array.from({ length: 10 }, () => ({
        service_uuids: [shop.cut.uuid, shop.colour.uuid],
        count: 1000,
      })),
    });
    const order = await openOrder(shop, {
      customer_uuid: buyer,
      packages: [{ package_uuid: tens.uuid, price: 100, quantity: 20 }],
    });
    const paid = await payOrder(shop, order.uuid, { account_uuid: shop.cash.uuid });
    expect(paid.status, JSON.stringify(paid.body).slice(0, 300)).toBe(200);
    const issued = paid.body.packages[0].customer_package_uuids as string[];
    expect(issued).toHaveLength(20);
    const credits = await everyShard
      .prepare(
        "select count(*) as n from customer_package_credits where customer_package_id in (select id from customer_packages where order_id = ?)",
      )
      .bind(order.uuid)
      .first<{ n: number }>();
    expect(credits?.n).toBe(200);
    const refunded = await shop.ws.api(`/orders/${order.uuid}/refund`, {
      method: "POST",
      body: {},
    });
    expect(refunded.status, JSON.stringify(refunded.body).slice(0, 300)).toBe(200);
    const statuses = await everyShard
      .prepare("select distinct status from customer_packages where order_id = ?")
      .bind(order.uuid)
      .all<{ status: string }>();
    expect(statuses.results).toEqual([{ status: "void" }]);
  });
});
