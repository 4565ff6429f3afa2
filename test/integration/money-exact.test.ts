import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { failpoints } from "../../src/platform/failpoints";
import {
  createLocation,
  createStaffer,
  createWorkspace,
  type TestWorkspace,
  WEEKDAYS_9_TO_18,
} from "../helpers/factory";
import { customer } from "../helpers/salon";
import { createAccount, createShop, openOrder, payOrder } from "../helpers/shop";
import { everyShard } from "../helpers/every-shard";

// Sums of many money records stay exact integers (below 2^53): completing every booking of a
// 10×10 cart at the maximum service price, paying one order many times over, an account
// taking payment after payment. What would pass the caps is a 422 that writes nothing.

const MAX_UNIT_PRICE = 1_000_000_000;
/** The most one request may pay (a booking's `paid_amount`): the largest order's base amount. */
const MAX_PAID = 3_000_000_000_000_000;
/** The most one order may be paid in all: the largest order's total (base + 100 % tax). */
const MAX_ORDER_PAID = 6_000_000_000_000_000;
const SERVICES = 10;
const ITEMS = 10;

let ws: TestWorkspace;
let location: { uuid: string };
let services: { uuid: string }[];
let staffers: { uuid: string }[];
let day = 0;

beforeAll(async () => {
  ws = await createWorkspace();
  location = await createLocation(ws, { timezone: "Europe/Berlin" });
  staffers = [];
  for (let i = 0; i < SERVICES; i++)
    staffers.push(
      await createStaffer(ws, [location.uuid], {
        first_name: `Staff ${i}`,
        schedule: WEEKDAYS_9_TO_18(location.uuid),
      }),
    );
  services = [];
  for (let i = 0; i < SERVICES; i++) {
    const res = await ws.api("/services", {
      method: "POST",
      body: { name: `Step ${i}`, duration: 15, price: MAX_UNIT_PRICE },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    services.push(res.body);
  }
});
afterEach(() => failpoints.disarmAll());

/** Weekdays from 2030-03-11 on (the week of 2030-03-04 is the 10×10 cart's), one per cart. */
function nextWeekday(): string {
  const monday = Date.parse("2030-03-11T00:00:00Z");
  const d = day++;
  const date = new Date(monday + (Math.floor(d / 5) * 7 + (d % 5)) * 86_400_000);
  return date.toISOString().slice(0, 10);
}

/** A cart of `items` bookings back to back on a fresh day from 09:00 Berlin, each of `perItem` services. */
async function bookCart(items: number, perItem: number, phone: string) {
  const date = nextWeekday();
  const res = await ws.api("/bookings/cart", {
    method: "POST",
    body: {
      location_uuid: location.uuid,
      ...customer(phone),
      items: Array.from({ length: items }, (_, k) => ({
        datetime_start: new Date(Date.parse(`${date}T08:00:00Z`) + k * perItem * 15 * 60_000)
          .toISOString()
          .replace(".000Z", "Z"),
        services: services.slice(0, perItem).map((s) => ({ service_uuid: s.uuid })),
      })),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.bookings as { uuid: string; order: { uuid: string } }[];
}

const complete = (bookingId: string, body: Record<string, unknown>) =>
  ws.api(`/bookings/${bookingId}/status/complete`, { method: "PUT", body });

const accountOf = async (accountId: string) => {
  const row = await everyShard
    .prepare(
      "select balance, (select count(*) from account_transactions where account_id = ?1) as n from accounts where id = ?1",
    )
    .bind(accountId)
    .first<{ balance: number; n: number }>();
  return row ?? { balance: 0, n: 0 };
};
const orderOf = (orderId: string) =>
  everyShard
    .prepare(
      "select status, account_paid_amount, voucher_paid_amount, version from orders where id = ?",
    )
    .bind(orderId)
    .first<Record<string, unknown>>();

function expect422(res: { status: number; body: unknown }, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body).toEqual({
    message: expect.any(String),
    code: "validation_failed",
    errors: { [field]: [expect.any(String)] },
  });
}

describe("a 10×10 cart at the maximum service price", () => {
  it("completes booking by booking to its exact total of 10^11", async () => {
    const account = await createAccount(ws, location.uuid, "cash");
    // Monday to Friday of 2030-03-04 at 09:00 and 13:00 Berlin, each item on all ten staffers.
    const cart = await ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: location.uuid,
        ...customer("+49 151 10000001"),
        items: Array.from({ length: ITEMS }, (_, k) => ({
          datetime_start: `2030-03-0${4 + Math.floor(k / 2)}T${k % 2 === 0 ? "08" : "12"}:00:00Z`,
          services: services.map((s, j) => ({
            service_uuid: s.uuid,
            staffer_uuid: staffers[j]?.uuid,
          })),
        })),
      },
    });
    expect(cart.status, JSON.stringify(cart.body)).toBe(201);
    const bookings = cart.body.bookings as { uuid: string; order: { uuid: string } }[];
    const orderId = bookings[0]?.order.uuid ?? "";
    const total = ITEMS * SERVICES * MAX_UNIT_PRICE;
    let paid = 0;
    for (const b of bookings) {
      const res = await complete(b.uuid, { account_uuid: account.uuid });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      paid += SERVICES * MAX_UNIT_PRICE;
      expect(res.body.order).toMatchObject({ total, amount_paid: paid });
      expect(Number.isSafeInteger(res.body.order.amount_paid)).toBe(true);
    }
    expect(await orderOf(orderId)).toMatchObject({
      status: "paid",
      account_paid_amount: total,
      voucher_paid_amount: 0,
    });
    expect((await accountOf(account.uuid)).balance).toBe(total);
  });
});

describe("summing the completes of one cart", () => {
  it("takes payments up to the largest order total, refuses the one past it and writes nothing", async () => {
    const account = await createAccount(ws, location.uuid, "cash");
    const bookings = await bookCart(4, 1, "+49 151 20000000");
    const orderId = bookings[0]?.order.uuid ?? "";
    for (const b of bookings.slice(0, 2)) {
      const res = await complete(b.uuid, { account_uuid: account.uuid, paid_amount: MAX_PAID });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    expect(await orderOf(orderId)).toMatchObject({ account_paid_amount: MAX_ORDER_PAID });
    const orderBefore = await orderOf(orderId);
    const accountBefore = await accountOf(account.uuid);

    // A third 3·10^15 would make the order's payments 9·10^15, a fourth 1.2·10^16 > 2^53.
    for (const b of bookings.slice(2)) {
      expect422(
        await complete(b.uuid, { account_uuid: account.uuid, paid_amount: MAX_PAID }),
        "paid_amount",
      );
      expect422(
        await complete(b.uuid, { account_uuid: account.uuid, paid_amount: 1 }),
        "paid_amount",
      );
      expect((await ws.api(`/bookings/${b.uuid}`)).body.is_completed).toBe(false);
    }
    expect(await orderOf(orderId)).toEqual(orderBefore);
    expect(await accountOf(account.uuid)).toEqual(accountBefore);

    // Nothing more to take: completing with paid_amount 0 still closes the booking.
    const closed = await complete(bookings[2]?.uuid ?? "", {
      account_uuid: account.uuid,
      paid_amount: 0,
    });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    expect(closed.body.order.amount_paid).toBe(MAX_ORDER_PAID);
  });
});

describe("an account's balance over many payments", () => {
  it("stays within 2^53 − 1: the payment that would pass it is 422 and writes nothing", async () => {
    const account = await createAccount(ws, location.uuid, "cash");
    const singles = [];
    for (let i = 0; i < 4; i++) singles.push(...(await bookCart(1, 1, `+49 151 3000000${i}`)));
    for (const b of singles.slice(0, 3)) {
      const res = await complete(b.uuid, { account_uuid: account.uuid, paid_amount: MAX_PAID });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const before = await accountOf(account.uuid);
    expect(before).toEqual({ balance: 3 * MAX_PAID, n: 3 });
    const last = singles[3] as { uuid: string; order: { uuid: string } };
    const orderBefore = await orderOf(last.order.uuid);
    expect422(
      await complete(last.uuid, { account_uuid: account.uuid, paid_amount: MAX_PAID }),
      "account_uuid",
    );
    expect(await accountOf(account.uuid)).toEqual(before);
    expect(await orderOf(last.order.uuid)).toEqual(orderBefore);
    expect((await ws.api(`/bookings/${last.uuid}`)).body.is_completed).toBe(false);
  });

  it("two completes that each fit but together would not: one is paid, the other is 422", async () => {
    const account = await createAccount(ws, location.uuid, "cash");
    const singles = [];
    for (let i = 0; i < 5; i++) singles.push(...(await bookCart(1, 1, `+49 151 4000000${i}`)));
    for (const b of singles.slice(0, 3)) {
      const res = await complete(b.uuid, { account_uuid: account.uuid, paid_amount: MAX_PAID });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    // 9·10^15 taken; 2^53 − 1 − 9·10^15 = 7 199 254 740 991 is left, each asks for 5·10^12.
    const each = 5_000_000_000_000;
    failpoints.meet("booking.change.before_write", 2);
    const results = await Promise.all(
      singles
        .slice(3)
        .map((b) => complete(b.uuid, { account_uuid: account.uuid, paid_amount: each })),
    );
    expect(results.map((r) => r.status).sort(), JSON.stringify(results.map((r) => r.body))).toEqual(
      [200, 422],
    );
    expect(await accountOf(account.uuid)).toEqual({ balance: 3 * MAX_PAID + each, n: 4 });
  });

  it("a POS payment or refund that would take an account past ±(2^53 − 1) is 422", async () => {
    const shop = await createShop();
    const order = await openOrder(shop, {
      goods: [{ good_uuid: shop.shampoo.uuid, price: 5000, quantity: 1 }],
    });
    // Seeded straight into D1: reaching the edge through POS payments would take five orders of
    // 200 lines at the maximum; the edge itself is what is under test.
    const edge = Number.MAX_SAFE_INTEGER - 4999;
    await everyShard
      .prepare("update accounts set balance = ? where id = ?")
      .bind(edge, shop.cash.uuid)
      .run();
    expect422(await payOrder(shop, order.uuid, { account_uuid: shop.cash.uuid }), "account_uuid");
    expect((await shop.ws.api(`/orders/${order.uuid}`)).body.status).toBe("open");
    expect((await accountOf(shop.cash.uuid)).balance).toBe(edge);

    const paid = await payOrder(shop, order.uuid, { account_uuid: shop.card.uuid });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    await everyShard
      .prepare("update accounts set balance = ? where id = ?")
      .bind(-edge, shop.cash.uuid)
      .run();
    expect422(
      await shop.ws.api(`/orders/${order.uuid}/refund`, {
        method: "POST",
        body: { account_uuid: shop.cash.uuid },
      }),
      "account_uuid",
    );
    expect((await shop.ws.api(`/orders/${order.uuid}`)).body.status).toBe("paid");
    expect((await accountOf(shop.cash.uuid)).balance).toBe(-edge);
  });
});
