import { beforeAll, describe, expect, it } from "vitest";
import { createWorkspace } from "../helpers/factory";
import { d1RoundTrips } from "../helpers/http";
import { at, customer } from "../helpers/salon";
import { createPromocode, createShop, type Shop } from "../helpers/shop";
import { everyShard } from "../helpers/every-shard";

let shop: Shop;
beforeAll(async () => {
  shop = await createShop();
});

const calculate = (body: Record<string, unknown>) =>
  shop.ws.api("/orders/calculate", {
    method: "POST",
    body: { location_uuid: shop.location.uuid, ...body },
  });

describe("POST /orders/calculate", () => {
  it("returns the invoice of the reference, signed as in its sample", async () => {
    await createPromocode(shop.ws, { code: "TENOFF", discount_percent: 10 });
    const res = await calculate({
      goods: [{ good_uuid: shop.shampoo.uuid, price: 1250, quantity: 2 }],
      services: [{ service_uuid: shop.cut.uuid, price: 3000, quantity: 1 }],
      vouchers: [{ voucher_template_uuid: shop.giftCard.uuid, price: 5000, quantity: 1 }],
      discount_amount: 500,
      promocode: "tenoff",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // base 2 500 + 3 000 + 5 000 = 10 500; − 500 → 10 000; 10 % promocode → 1 000; 9 000.
    expect(res.body).toEqual({
      invoice: {
        base_amount: 10_500,
        discount_amount: -500,
        promocode: "TENOFF",
        promocode_discount_amount: 1000,
        subtotal: 9000,
        taxes: [],
        total: 9000,
        // Catalogue prices: 2 × 1 250 + 3 500 + 5 000.
        base_price: 11_000,
        amount_due: 9000,
        voucher_paid_amount: 0,
        account_paid_amount: 0,
        amount_paid: 0,
        order_uuid: null,
        status: null,
      },
    });
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(3);
  });

  it("adds taxes of taxed catalogue items after the discounts", async () => {
    await everyShard
      .prepare("update goods set tax_name = 'VAT', tax_rate_bp = 1900 where id = ?")
      .bind(shop.shampoo.uuid)
      .run();
    try {
      const res = await calculate({
        goods: [{ good_uuid: shop.shampoo.uuid, price: 1000, quantity: 1 }],
        vouchers: [{ voucher_template_uuid: shop.giftCard.uuid, price: 1000, quantity: 1 }],
        discount_amount: 333,
      });
      expect(res.status).toBe(200);
      // The shampoo carries half the discount (167 by largest remainder): 19 % of 833 = 158.27 → 158.
      expect(res.body.invoice.taxes).toEqual([{ name: "VAT", rate_bp: 1900, amount: 158 }]);
      expect(res.body.invoice.subtotal).toBe(1667);
      expect(res.body.invoice.total).toBe(1667 + 158);
    } finally {
      await everyShard
        .prepare("update goods set tax_name = null, tax_rate_bp = null where id = ?")
        .bind(shop.shampoo.uuid)
        .run();
    }
  });

  it("does not count the uses of the bookings in booking_uuids against a promocode", async () => {
    await createPromocode(shop.ws, { code: "BOOKED", discount_percent: 20, max_uses: 1 });
    const booking = await shop.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: shop.location.uuid,
        service_uuid: shop.cut.uuid,
        reserved_on: at("09:00", "2030-03-06"),
        ...customer(),
      },
    });
    expect(booking.status).toBe(201);
    const used = await shop.ws.api("/orders", {
      method: "POST",
      body: {
        location_uuid: shop.location.uuid,
        staffer_uuid: shop.seller.uuid,
        services: [
          {
            service_uuid: shop.cut.uuid,
            price: 3500,
            quantity: 1,
            booking_uuid: booking.body.uuid,
          },
        ],
        promocode: "BOOKED",
      },
    });
    expect(used.status, JSON.stringify(used.body)).toBe(201);
    const lines = { services: [{ service_uuid: shop.cut.uuid, price: 3500, quantity: 1 }] };
    const spent = await calculate({ ...lines, promocode: "BOOKED" });
    expect(spent.status).toBe(422);
    expect(spent.body.errors.promocode).toEqual(["This promocode has no uses left."]);
    const own = await calculate({
      ...lines,
      promocode: "BOOKED",
      booking_uuids: [booking.body.uuid],
    });
    expect(own.status).toBe(200);
    expect(own.body.invoice).toMatchObject({ promocode_discount_amount: 700, total: 2800 });
    const stranger = await calculate({
      ...lines,
      promocode: "BOOKED",
      booking_uuids: [crypto.randomUUID()],
    });
    expect(stranger.status).toBe(422);
  });

  it("needs nothing but the location", async () => {
    const res = await calculate({});
    expect(res.status).toBe(200);
    expect(res.body.invoice.total).toBe(0);
  });

  it("refuses unknown goods, services, voucher templates and locations with 422", async () => {
    const unknown = crypto.randomUUID();
    const res = await calculate({
      location_uuid: unknown,
      goods: [{ good_uuid: unknown, price: 100, quantity: 1 }],
      services: [{ service_uuid: unknown, price: 100, quantity: 1 }],
      vouchers: [{ voucher_template_uuid: unknown, price: 100, quantity: 1 }],
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect(Object.keys(res.body.errors).sort()).toEqual([
      "goods.0.good_uuid",
      "location_uuid",
      "services.0.service_uuid",
      "vouchers.0.voucher_template_uuid",
    ]);
  });

  it("does not see another workspace's catalogue", async () => {
    const other = await createWorkspace();
    const res = await other.api("/orders/calculate", {
      method: "POST",
      body: {
        location_uuid: shop.location.uuid,
        goods: [{ good_uuid: shop.shampoo.uuid, price: 100, quantity: 1 }],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveProperty("location_uuid");
    expect(res.body.errors).toHaveProperty(["goods.0.good_uuid"]);
  });

  it("refuses an unknown promocode and a discount larger than the bill", async () => {
    const res = await calculate({
      goods: [{ good_uuid: shop.shampoo.uuid, price: 1000, quantity: 1 }],
      promocode: "NOPE",
      discount_amount: 1001,
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.promocode).toEqual(["Unknown promocode."]);
    expect(res.body.errors.discount_amount).toBeDefined();
  });

  it.each([
    [{ location_uuid: "nope" }, "location_uuid"],
    [{ goods: [{ good_uuid: crypto.randomUUID(), price: -1, quantity: 1 }] }, "goods.0.price"],
    [{ goods: [{ good_uuid: crypto.randomUUID(), price: 1, quantity: 0 }] }, "goods.0.quantity"],
    [{ goods: [{ good_uuid: crypto.randomUUID(), price: 1.5, quantity: 1 }] }, "goods.0.price"],
    [{ discount_amount: "5" }, "discount_amount"],
    [{ booking_uuids: ["x"] }, "booking_uuids.0"],
    [{ goods: "all" }, "goods"],
  ])("rejects bad input %j with 422 on %s", async (body, field) => {
    const res = await calculate(body);
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveProperty([field]);
  });
});
