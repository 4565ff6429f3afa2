import { beforeAll, describe, expect, it } from "vitest";
import { createLocation, createStaffer, createWorkspace } from "../helpers/factory";
import { admin, d1RoundTrips } from "../helpers/http";
import { createPromocode, createShop, type Shop } from "../helpers/shop";
import { everyShard } from "../helpers/every-shard";

let shop: Shop;
let customerId: string;
beforeAll(async () => {
  shop = await createShop();
  const imported = await admin(`/workspaces/${shop.ws.id}/customers`, {
    method: "POST",
    body: { phone: "+49 151 11111111", first_name: "Ida" },
  });
  expect(imported.status).toBe(201);
  customerId = imported.body.uuid;
});

const create = (body: Record<string, unknown>) =>
  shop.ws.api("/orders", {
    method: "POST",
    body: { location_uuid: shop.location.uuid, staffer_uuid: shop.seller.uuid, ...body },
  });

const counts = async () => {
  const row = await everyShard
    .prepare(
      `select (select count(*) from orders where workspace_id = ?1) as orders,
            (select count(*) from order_lines where workspace_id = ?1) as lines,
            (select count(*) from promocode_uses where workspace_id = ?1) as uses,
            (select count(*) from events where workspace_id = ?1 and type = 'order-created') as events`,
    )
    .bind(shop.ws.id)
    .first<{ orders: number; lines: number; uses: number; events: number }>();
  return row;
};

describe("POST /orders", () => {
  it("opens an order with the full POS order shape, priced as calculate priced it", async () => {
    const lines = {
      goods: [{ good_uuid: shop.shampoo.uuid, price: 1250, quantity: 2 }],
      services: [
        {
          service_uuid: shop.cut.uuid,
          price: 3500,
          quantity: 1,
          staffer_uuid: shop.staffers[0]?.uuid,
        },
      ],
      vouchers: [{ voucher_template_uuid: shop.giftCard.uuid, price: 5000, quantity: 1 }],
    };
    const preview = await shop.ws.api("/orders/calculate", {
      method: "POST",
      body: { location_uuid: shop.location.uuid, ...lines, discount_amount: 1000 },
    });
    const res = await create({
      ...lines,
      customer_uuid: customerId,
      discount_amount: 1000,
      comment: "Regular",
      invoice_note: "Thanks!",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const order = res.body;
    expect(order).toMatchObject({
      status: "open",
      is_reverted: false,
      booking_uuids: [],
      location_uuid: shop.location.uuid,
      staffer_uuid: shop.seller.uuid,
      subtotal: preview.body.invoice.subtotal,
      total: preview.body.invoice.total,
      amount_due: preview.body.invoice.amount_due,
      account_paid_amount: 0,
      voucher_paid_amount: 0,
      discount_amount: -1000,
      discount_mode: "fixed",
      discount_percent: null,
      promocode: null,
      promocode_discount_amount: null,
      payment_method: null,
      comment: "Regular",
      invoice_note: "Thanks!",
      customer: { uuid: customerId, first_name: "Ida", phone: "+4915111111111" },
      goods: [
        {
          good_uuid: shop.shampoo.uuid,
          name: "Shampoo",
          article: "SH-1",
          quantity: 2,
          price: 1250,
          staffer_uuid: shop.seller.uuid,
        },
      ],
      services: [
        {
          service_uuid: shop.cut.uuid,
          name: "Haircut",
          quantity: 1,
          price: 3500,
          booking_uuid: null,
          staffer_uuid: shop.staffers[0]?.uuid,
        },
      ],
      vouchers: [
        {
          voucher_template_uuid: shop.giftCard.uuid,
          name: "Gift card 50",
          quantity: 1,
          price: 5000,
          staffer_uuid: shop.seller.uuid,
        },
      ],
    });
    expect(order.subtotal).toBe(2500 + 3500 + 5000 - 1000);
    expect(order.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(order.order_number).toBeGreaterThan(0);
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(3);

    const again = await shop.ws.api(`/orders/${order.uuid}`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(order);

    const event = await everyShard
      .prepare(
        "select payload from events where workspace_id = ? and type = 'order-created' and json_extract(payload, '$.uuid') = ?",
      )
      .bind(shop.ws.id, order.uuid)
      .first<{ payload: string }>();
    expect(JSON.parse(event?.payload ?? "null")).toEqual(order);
  });

  it("numbers orders per workspace, one above the last", async () => {
    const body = { goods: [{ good_uuid: shop.shampoo.uuid, price: 1250, quantity: 1 }] };
    const last = await everyShard
      .prepare("select coalesce(max(order_number), 0) as n from orders where workspace_id = ?")
      .bind(shop.ws.id)
      .first<{ n: number }>();
    const before = await counts();
    const results = await Promise.all([create(body), create(body), create(body)]);
    // All three are created (none lost to a number clash), numbered last+1 … last+3.
    expect(
      results.map((r) => r.status),
      JSON.stringify(results.map((r) => r.body)),
    ).toEqual([201, 201, 201]);
    const numbers = results.map((r) => r.body.order_number as number).sort((a, b) => a - b);
    const n = last?.n ?? 0;
    expect(numbers).toEqual([n + 1, n + 2, n + 3]);
    const after = await counts();
    expect((after?.orders ?? 0) - (before?.orders ?? 0)).toBe(3);
    // Each number is the stored one.
    for (const r of results)
      expect((await shop.ws.api(`/orders/${r.body.uuid}`)).body.order_number).toBe(
        r.body.order_number,
      );
    const other = await createShop();
    const first = await other.ws.api("/orders", {
      method: "POST",
      body: {
        location_uuid: other.location.uuid,
        staffer_uuid: other.seller.uuid,
        ...{ goods: [{ good_uuid: other.shampoo.uuid, price: 1, quantity: 1 }] },
      },
    });
    expect(first.status).toBe(201);
    expect(first.body.order_number).toBe(1);
  });

  it("takes a percent discount, rounded half-up", async () => {
    const res = await create({
      goods: [{ good_uuid: shop.wax.uuid, price: 899, quantity: 1 }],
      discount_mode: "percent",
      discount_percent: 15,
    });
    expect(res.status).toBe(201);
    // 15 % of 899 = 134.85 → 135.
    expect(res.body).toMatchObject({ discount_amount: -135, subtotal: 764, discount_percent: 15 });
  });

  it("freezes a promocode's discount and counts its use", async () => {
    await createPromocode(shop.ws, { code: "ONCE", discount_amount: 300, max_uses: 1 });
    const body = {
      goods: [{ good_uuid: shop.shampoo.uuid, price: 1250, quantity: 1 }],
      promocode: "once",
    };
    const first = await create(body);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({
      promocode: "ONCE",
      promocode_discount_amount: 300,
      total: 950,
    });
    const second = await create(body);
    expect(second.status).toBe(422);
    expect(second.body.errors.promocode).toEqual(["This promocode has no uses left."]);
  });

  it("lets only one of many racing orders take a code's last use", async () => {
    await createPromocode(shop.ws, { code: "RACE", discount_percent: 50, max_uses: 1 });
    const before = await counts();
    const body = {
      goods: [{ good_uuid: shop.shampoo.uuid, price: 1000, quantity: 1 }],
      promocode: "RACE",
    };
    const results = await Promise.all(Array.from({ length: 8 }, () => create(body)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 422)).toHaveLength(7);
    const after = await counts();
    expect((after?.orders ?? 0) - (before?.orders ?? 0)).toBe(1);
    expect((after?.uses ?? 0) - (before?.uses ?? 0)).toBe(1);
  });

  it("takes an explicit promocode amount, but not without a code or beyond the bill", async () => {
    await createPromocode(shop.ws, { code: "EXPLICIT", discount_percent: 5 });
    const ok = await create({
      goods: [{ good_uuid: shop.shampoo.uuid, price: 1000, quantity: 1 }],
      promocode: "EXPLICIT",
      promocode_discount_amount: 200,
    });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ promocode_discount_amount: 200, total: 800 });
    const tooMuch = await create({
      goods: [{ good_uuid: shop.shampoo.uuid, price: 1000, quantity: 1 }],
      promocode: "EXPLICIT",
      promocode_discount_amount: 1001,
    });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.errors).toHaveProperty("promocode_discount_amount");
    const noCode = await create({
      goods: [{ good_uuid: shop.shampoo.uuid, price: 1000, quantity: 1 }],
      promocode_discount_amount: 100,
    });
    expect(noCode.status).toBe(422);
    expect(noCode.body.errors).toHaveProperty("promocode_discount_amount");
  });

  it("answers 403 for a seller without access-pos, and writes nothing", async () => {
    const before = await counts();
    const res = await create({
      staffer_uuid: shop.staffers[0]?.uuid,
      goods: [{ good_uuid: shop.shampoo.uuid, price: 1250, quantity: 1 }],
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      message: "The seller does not hold the access-pos permission.",
      code: "forbidden",
    });
    expect(await counts()).toEqual(before);
  });

  it("refuses a seller of another location, unknown people and goods not for sale", async () => {
    const elsewhere = await createLocation(shop.ws, { name: "Elsewhere" });
    const remote = await createStaffer(shop.ws, [elsewhere.uuid], { permissions: ["access-pos"] });
    const notForSale = await shop.ws.api("/goods", {
      method: "POST",
      body: {
        name: "Towel",
        article: "TW-1",
        unit: "pcs",
        is_consumable: false,
        is_payable: false,
      },
    });
    const before = await counts();
    const res = await create({
      staffer_uuid: remote.uuid,
      customer_uuid: crypto.randomUUID(),
      goods: [
        { good_uuid: notForSale.body.uuid, price: 100, quantity: 1 },
        {
          good_uuid: shop.shampoo.uuid,
          price: 100,
          quantity: 1,
          staffer_uuid: crypto.randomUUID(),
        },
      ],
      services: [
        { service_uuid: shop.cut.uuid, price: 100, quantity: 1, booking_uuid: crypto.randomUUID() },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      staffer_uuid: ["The seller does not work at this location."],
      customer_uuid: ["Unknown customer."],
      "goods.0.good_uuid": ["This good is not for sale."],
      "goods.1.staffer_uuid": ["Unknown staffer."],
      "services.0.booking_uuid": ["Unknown booking."],
    });
    expect(await counts()).toEqual(before);
  });

  it.each([
    [{}, "goods"],
    [{ goods: [] }, "goods"],
    [
      {
        staffer_uuid: undefined,
        goods: [{ good_uuid: crypto.randomUUID(), price: 1, quantity: 1 }],
      },
      "staffer_uuid",
    ],
    [
      {
        location_uuid: undefined,
        vouchers: [{ voucher_template_uuid: crypto.randomUUID(), price: 1, quantity: 1 }],
      },
      "location_uuid",
    ],
    [
      {
        discount_mode: "percent",
        goods: [{ good_uuid: crypto.randomUUID(), price: 1, quantity: 1 }],
      },
      "discount_percent",
    ],
    [
      {
        discount_mode: "percent",
        discount_percent: 101,
        goods: [{ good_uuid: crypto.randomUUID(), price: 1, quantity: 1 }],
      },
      "discount_percent",
    ],
    [
      {
        discount_mode: "percent",
        discount_percent: -1,
        goods: [{ good_uuid: crypto.randomUUID(), price: 1, quantity: 1 }],
      },
      "discount_percent",
    ],
    [
      { discount_percent: 10, goods: [{ good_uuid: crypto.randomUUID(), price: 1, quantity: 1 }] },
      "discount_percent",
    ],
    [
      {
        discount_mode: "fixed",
        goods: [{ good_uuid: crypto.randomUUID(), price: 1, quantity: 1 }],
      },
      "discount_amount",
    ],
    [
      { discount_mode: "half", goods: [{ good_uuid: crypto.randomUUID(), price: 1, quantity: 1 }] },
      "discount_mode",
    ],
    [
      { goods: [{ good_uuid: crypto.randomUUID(), price: 1, quantity: 10_001 }] },
      "goods.0.quantity",
    ],
    [
      {
        goods: Array.from({ length: 101 }, () => ({
          good_uuid: crypto.randomUUID(),
          price: 1,
          quantity: 1,
        })),
      },
      "goods",
    ],
    [
      {
        comment: "x".repeat(5001),
        goods: [{ good_uuid: crypto.randomUUID(), price: 1, quantity: 1 }],
      },
      "comment",
    ],
  ])("rejects %j with 422 on %s", async (body, field) => {
    const before = await counts();
    const res = await create(body);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.errors).toHaveProperty([field]);
    expect(await counts()).toEqual(before);
  });

  it("leaves nothing behind when the write fails half-way", async () => {
    await createPromocode(shop.ws, { code: "FAULT", discount_percent: 10, max_uses: 5 });
    const before = await counts();
    await everyShard.exec(
      "CREATE TRIGGER fail_lines BEFORE INSERT ON order_lines BEGIN SELECT RAISE(ABORT, 'injected'); END",
    );
    try {
      const res = await create({
        goods: [{ good_uuid: shop.shampoo.uuid, price: 1250, quantity: 1 }],
        promocode: "FAULT",
      });
      expect(res.status).toBe(500);
      expect(res.body.code).toBe("internal_error");
    } finally {
      await everyShard.exec("DROP TRIGGER fail_lines");
    }
    expect(await counts()).toEqual(before);
  });

  it("is another workspace's 404 and a bad uuid's 422 on GET", async () => {
    const other = await createWorkspace();
    const mine = await create({ goods: [{ good_uuid: shop.shampoo.uuid, price: 1, quantity: 1 }] });
    expect((await other.api(`/orders/${mine.body.uuid}`)).status).toBe(404);
    expect((await shop.ws.api(`/orders/${crypto.randomUUID()}`)).status).toBe(404);
    const bad = await shop.ws.api("/orders/not-a-uuid");
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toHaveProperty("order_uuid");
  });
});
