import { beforeAll, describe, expect, it } from "vitest";
import { adminDirect, apiDirect } from "../helpers/direct";
import {
  createLocation,
  createStaffer,
  createWorkspace,
  type TestWorkspace,
} from "../helpers/factory";
import { admin } from "../helpers/http";
import { createAccount, createPromocode } from "../helpers/shop";
import { everyShard } from "../helpers/every-shard";

// POS orders at their limits: 100 lines of each kind at once, unit prices up to 10^9 minor
// units, quantities up to 10 000. Every amount must stay an exact integer (below 2^53), and
// calculate, create and pay must agree. Past any limit: 422, nothing written.
const MAX_LINES = 100;
const MAX_PRICE = 1_000_000_000;
const MAX_QUANTITY = 10_000;
const MAX_AMOUNT = 3 * MAX_LINES * MAX_PRICE * MAX_QUANTITY;

let ws: TestWorkspace;
let location: { uuid: string };
let seller: { uuid: string };
let helpers: { uuid: string }[];
let cash: { uuid: string };
let customer: { uuid: string; first_name: string; phone: string };
type Ref = { uuid: string; name: string; article?: string };
let goods: Ref[];
let services: Ref[];
let vouchers: Ref[];

const pad = (i: number) => String(i).padStart(3, "0");

beforeAll(async () => {
  ws = await createWorkspace();
  location = await createLocation(ws);
  seller = await createStaffer(ws, [location.uuid], {
    first_name: "Sam",
    permissions: ["access-pos"],
  });
  helpers = [];
  for (let i = 0; i < 5; i++) helpers.push(await createStaffer(ws, [location.uuid]));
  cash = await createAccount(ws, location.uuid, "cash");
  const imported = await admin(`/workspaces/${ws.id}/customers`, {
    method: "POST",
    body: { phone: "+49 151 22222222", first_name: "Ida" },
  });
  expect(imported.status).toBe(201);
  customer = imported.body;

  // Catalogue set-up goes through the Worker directly (see helpers/direct.ts), on a key of its
  // own so the requests under test keep the per-key rate limit to themselves.
  const key = await admin(`/workspaces/${ws.id}/api-keys`, { method: "POST" });
  expect(key.status).toBe(201);
  const setup = apiDirect({ ...ws, apiKey: key.body.api_key });
  const made = async (res: Promise<{ status: number; body: Ref }>) => {
    const { status, body } = await res;
    expect(status, JSON.stringify(body)).toBe(201);
    return body;
  };
  goods = [];
  services = [];
  vouchers = [];
  for (let i = 0; i < MAX_LINES; i++) {
    goods.push(
      await made(
        setup("/goods", {
          method: "POST",
          body: {
            name: `Good ${pad(i)}`,
            article: `G-${pad(i)}`,
            unit: "pcs",
            is_consumable: false,
            is_payable: true,
            price: MAX_PRICE - i,
          },
        }),
      ),
    );
    services.push(
      await made(
        setup("/services", {
          method: "POST",
          body: { name: `Service ${pad(i)}`, duration: 30, price: MAX_PRICE - i },
        }),
      ),
    );
    vouchers.push(
      await made(
        adminDirect(`/workspaces/${ws.id}/voucher-templates`, {
          method: "POST",
          body: { name: `Voucher ${pad(i)}`, price: MAX_PRICE - i },
        }),
      ),
    );
  }
}, 120_000);

/** Line i of each kind (0 goods, 1 services, 2 vouchers): the first at the very maximum. */
const priceOf = (kind: number, i: number) =>
  i === 0 ? MAX_PRICE : MAX_PRICE - kind * MAX_LINES - i;
// Paying an order issues one voucher per unit, at most 100 per order: voucher lines sell one each.
const quantityOf = (kind: number, i: number) =>
  kind === 2 ? 1 : i === 0 ? MAX_QUANTITY : MAX_QUANTITY - kind * MAX_LINES - i;
const stafferOf = (i: number) => helpers[i % helpers.length]?.uuid ?? "";

const bodyLines = (withStaff: boolean) => ({
  goods: goods.map((g, i) => ({
    good_uuid: g.uuid,
    price: priceOf(0, i),
    quantity: quantityOf(0, i),
    ...(withStaff ? { staffer_uuid: stafferOf(i) } : {}),
  })),
  services: services.map((s, i) => ({
    service_uuid: s.uuid,
    price: priceOf(1, i),
    quantity: quantityOf(1, i),
    ...(withStaff ? { staffer_uuid: stafferOf(i + 1) } : {}),
  })),
  vouchers: vouchers.map((v, i) => ({
    voucher_template_uuid: v.uuid,
    price: priceOf(2, i),
    quantity: quantityOf(2, i),
    ...(withStaff ? { staffer_uuid: stafferOf(i + 2) } : {}),
  })),
});

/** The invoice worked out here in BigInt, independently of the pricing code. */
function expectedInvoice(discount: number, promoPercent: number) {
  let base = 0n;
  let catalogue = 0n;
  for (let kind = 0; kind < 3; kind++) {
    for (let i = 0; i < MAX_LINES; i++) {
      base += BigInt(priceOf(kind, i)) * BigInt(quantityOf(kind, i));
      // Item i of every kind is in the catalogue at MAX_PRICE − i.
      catalogue += BigInt(MAX_PRICE - i) * BigInt(quantityOf(kind, i));
    }
  }
  const left = base - BigInt(discount);
  const promo = (left * BigInt(promoPercent) * 2n + 100n) / 200n; // half-up
  const subtotal = left - promo;
  for (const amount of [base, catalogue, subtotal]) expect(amount).toBeLessThan(2n ** 53n);
  return {
    basePrice: Number(catalogue),
    invoice: {
      base_amount: Number(base),
      discount_amount: -discount,
      promocode_discount_amount: Number(promo),
      subtotal: Number(subtotal),
      // Goods, services and vouchers made through the API carry no tax.
      taxes: [],
      total: Number(subtotal),
    },
  };
}

/** The one error body: message, code and the field's messages. */
function expect422(res: { status: number; body: unknown }, ...fields: string[]) {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body).toEqual({
    message: expect.any(String),
    code: "validation_failed",
    errors: expect.objectContaining(
      Object.fromEntries(fields.map((f) => [f, [expect.any(String)]])),
    ),
  });
}

const counts = async () =>
  everyShard
    .prepare(
      `select (select count(*) from orders where workspace_id = ?1) as orders,
            (select count(*) from order_lines where workspace_id = ?1) as lines,
            (select count(*) from events where workspace_id = ?1) as events`,
    )
    .bind(ws.id)
    .first();

const calculate = (body: Record<string, unknown>) =>
  ws.api("/orders/calculate", {
    method: "POST",
    body: { location_uuid: location.uuid, ...body },
  });
const create = (body: Record<string, unknown>) =>
  ws.api("/orders", {
    method: "POST",
    body: { location_uuid: location.uuid, staffer_uuid: seller.uuid, ...body },
  });

describe("a POS order with 100 lines of every kind", () => {
  it("is priced the same by calculate, create and pay, every line present, totals exact", async () => {
    await createPromocode(ws, { code: "MAX7", discount_percent: 7 });
    const discount = 1_000_000_007;
    const { invoice: expected, basePrice } = expectedInvoice(discount, 7);

    const preview = await calculate({
      ...bodyLines(false),
      discount_amount: discount,
      promocode: "max7",
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toEqual({
      invoice: {
        ...expected,
        promocode: "MAX7",
        base_price: basePrice,
        amount_due: expected.total,
        voucher_paid_amount: 0,
        account_paid_amount: 0,
        amount_paid: 0,
        order_uuid: null,
        status: null,
      },
    });

    const res = await create({
      ...bodyLines(true),
      customer_uuid: customer.uuid,
      discount_amount: discount,
      promocode: "max7",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const line = (list: Ref[], kind: number, staffOffset: number) =>
      list.map((ref, i) => ({
        name: ref.name,
        quantity: quantityOf(kind, i),
        price: priceOf(kind, i),
        staffer_uuid: stafferOf(i + staffOffset),
      }));
    const opened = {
      uuid: expect.any(String),
      status: "open",
      order_number: expect.any(Number),
      is_reverted: false,
      refund_reason: null,
      booking_uuids: [],
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
      location_uuid: location.uuid,
      staffer_uuid: seller.uuid,
      ...expected,
      amount_due: expected.total,
      account_paid_amount: 0,
      voucher_paid_amount: 0,
      online_paid_amount: 0,
      online_refunded_amount: 0,
      discount_mode: "fixed",
      discount_percent: null,
      promocode: "MAX7",
      payment_method: null,
      account_uuid: null,
      paid_at: null,
      comment: null,
      description: null,
      invoice_note: null,
      customer: expect.objectContaining({ uuid: customer.uuid, first_name: "Ida" }),
      goods: line(goods, 0, 0).map((l, i) => ({
        ...l,
        good_uuid: goods[i]?.uuid,
        article: `G-${pad(i)}`,
      })),
      services: line(services, 1, 1).map((l, i) => ({
        ...l,
        service_uuid: services[i]?.uuid,
        booking_uuid: null,
      })),
      vouchers: line(vouchers, 2, 2).map((l, i) => ({
        ...l,
        voucher_template_uuid: vouchers[i]?.uuid,
        codes: [],
      })),
      packages: [],
    };
    expect(res.body).toEqual(opened);
    const order = res.body;
    expect((await ws.api(`/orders/${order.uuid}`)).body).toEqual(order);

    const paid = await ws.api(`/orders/${order.uuid}/pay`, {
      method: "POST",
      body: { account_uuid: cash.uuid },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toEqual({
      ...order,
      status: "paid",
      amount_due: 0,
      account_paid_amount: -expected.total,
      payment_method: "cash_account",
      account_uuid: cash.uuid,
      paid_at: expect.stringMatching(/Z$/),
      vouchers: order.vouchers.map((v: object) => ({ ...v, codes: [expect.any(String)] })),
    });
    // The three agree on every amount.
    for (const field of Object.keys(expected) as (keyof typeof expected)[]) {
      expect(paid.body[field]).toEqual(preview.body.invoice[field]);
      expect(order[field]).toEqual(preview.body.invoice[field]);
    }
    expect((await ws.api(`/orders/${order.uuid}`)).body).toEqual(paid.body);
    const listed = await ws.api("/orders?per_page=100");
    expect(listed.status).toBe(200);
    expect(listed.body.data).toContainEqual(paid.body);
    // Every good left the stock, one row per good.
    const stock = await everyShard
      .prepare("select count(*) as n, sum(quantity) as q from good_stocks where workspace_id = ?")
      .bind(ws.id)
      .first<{ n: number; q: number }>();
    expect(stock).toEqual({
      n: MAX_LINES,
      q: -goods.reduce((sum, _, i) => sum + quantityOf(0, i), 0),
    });
  });

  it("reaches the largest base amount exactly: every line at the maximum price and quantity", async () => {
    // Voucher lines at one unit each: an order issues at most 100 vouchers.
    const largest = 2 * MAX_LINES * MAX_PRICE * MAX_QUANTITY + MAX_LINES * MAX_PRICE;
    const atMax = {
      goods: goods.map((g) => ({ good_uuid: g.uuid, price: MAX_PRICE, quantity: MAX_QUANTITY })),
      services: services.map((s) => ({
        service_uuid: s.uuid,
        price: MAX_PRICE,
        quantity: MAX_QUANTITY,
      })),
      vouchers: vouchers.map((v) => ({
        voucher_template_uuid: v.uuid,
        price: MAX_PRICE,
        quantity: 1,
      })),
    };
    const preview = await calculate({ ...atMax, discount_amount: largest });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.invoice).toMatchObject({
      base_amount: 2_000_100_000_000_000,
      discount_amount: -2_000_100_000_000_000,
      subtotal: 0,
      total: 0,
    });
    const res = await create({ ...atMax, discount_mode: "percent", discount_percent: 33 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // 33 % of 2 000 100 000 000 000 = 660 033 000 000 000 exactly.
    expect(res.body).toMatchObject({
      base_amount: 2_000_100_000_000_000,
      discount_amount: -660_033_000_000_000,
      subtotal: 1_340_067_000_000_000,
      total: 1_340_067_000_000_000,
    });
    expect(res.body.goods).toHaveLength(MAX_LINES);
    expect(res.body.services).toHaveLength(MAX_LINES);
    expect(res.body.vouchers).toHaveLength(MAX_LINES);
  });

  it("looks up 100 unknown references of each kind at once and names every one", async () => {
    const before = await counts();
    const unknown = () => crypto.randomUUID();
    const res = await create({
      goods: Array.from({ length: MAX_LINES }, () => ({
        good_uuid: unknown(),
        price: 1,
        quantity: 1,
        staffer_uuid: unknown(),
      })),
      services: Array.from({ length: MAX_LINES }, () => ({
        service_uuid: unknown(),
        price: 1,
        quantity: 1,
        booking_uuid: unknown(),
      })),
      vouchers: Array.from({ length: MAX_LINES }, () => ({
        voucher_template_uuid: unknown(),
        price: 1,
        quantity: 1,
      })),
    });
    const fields = Array.from({ length: MAX_LINES }, (_, i) => [
      `goods.${i}.good_uuid`,
      `goods.${i}.staffer_uuid`,
      `services.${i}.service_uuid`,
      `services.${i}.booking_uuid`,
      `vouchers.${i}.voucher_template_uuid`,
    ]).flat();
    expect422(res, ...fields);
    expect(Object.keys(res.body.errors)).toHaveLength(fields.length);
    expect(await counts()).toEqual(before);
  });

  it("takes 100 booking_uuids on calculate", async () => {
    const res = await calculate({
      goods: [{ good_uuid: goods[0]?.uuid, price: 100, quantity: 1 }],
      promocode: "MAX7",
      booking_uuids: Array.from({ length: MAX_LINES }, () => crypto.randomUUID()),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.invoice).toMatchObject({ base_amount: 100, promocode_discount_amount: 7 });
  });
});

describe("one past a POS limit", () => {
  const line = {
    goods: () => ({ good_uuid: goods[0]?.uuid, price: 1, quantity: 1 }),
    services: () => ({ service_uuid: services[0]?.uuid, price: 1, quantity: 1 }),
    vouchers: () => ({ voucher_template_uuid: vouchers[0]?.uuid, price: 1, quantity: 1 }),
  };
  const cases: [string, () => Record<string, unknown>][] = [
    ["goods", () => ({ goods: Array.from({ length: MAX_LINES + 1 }, line.goods) })],
    ["services", () => ({ services: Array.from({ length: MAX_LINES + 1 }, line.services) })],
    ["vouchers", () => ({ vouchers: Array.from({ length: MAX_LINES + 1 }, line.vouchers) })],
    ["goods.0.price", () => ({ goods: [{ ...line.goods(), price: MAX_PRICE + 1 }] })],
    ["services.0.price", () => ({ services: [{ ...line.services(), price: MAX_PRICE + 1 }] })],
    ["vouchers.0.price", () => ({ vouchers: [{ ...line.vouchers(), price: MAX_PRICE + 1 }] })],
    ["goods.0.quantity", () => ({ goods: [{ ...line.goods(), quantity: MAX_QUANTITY + 1 }] })],
    [
      "services.0.quantity",
      () => ({ services: [{ ...line.services(), quantity: MAX_QUANTITY + 1 }] }),
    ],
    [
      "vouchers.0.quantity",
      () => ({ vouchers: [{ ...line.vouchers(), quantity: MAX_QUANTITY + 1 }] }),
    ],
    ["discount_amount", () => ({ goods: [line.goods()], discount_amount: MAX_AMOUNT + 1 })],
  ];

  it.each(cases)("calculate refuses %s with 422", async (field, body) => {
    expect422(await calculate(body()), field);
  });

  it.each(cases)("create refuses %s with 422 and writes nothing", async (field, body) => {
    const before = await counts();
    expect422(await create(body()), field);
    expect(await counts()).toEqual(before);
  });

  it("refuses 101 booking_uuids on calculate and a promocode amount past the cap on create", async () => {
    expect422(
      await calculate({
        goods: [line.goods()],
        booking_uuids: Array.from({ length: MAX_LINES + 1 }, () => crypto.randomUUID()),
      }),
      "booking_uuids",
    );
    const before = await counts();
    expect422(
      await create({
        goods: [line.goods()],
        promocode: "MAX7",
        promocode_discount_amount: MAX_AMOUNT + 1,
      }),
      "promocode_discount_amount",
    );
    expect(await counts()).toEqual(before);
  });

  it("refuses a promocode amount past the cap on the management API", async () => {
    const res = await admin(`/workspaces/${ws.id}/promocodes`, {
      method: "POST",
      body: { code: "TOOMUCH", discount_amount: MAX_AMOUNT + 1 },
    });
    expect422(res, "discount_amount");
    const atCap = await admin(`/workspaces/${ws.id}/promocodes`, {
      method: "POST",
      body: { code: "ATCAP", discount_amount: MAX_AMOUNT },
    });
    expect(atCap.status, JSON.stringify(atCap.body)).toBe(201);
  });
});
