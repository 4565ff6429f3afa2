import { beforeAll, describe, expect, it } from "vitest";
import { MAX_VOUCHERS_PER_ORDER } from "../../src/pos/rules";
import { createPromocode, createShop, type Shop } from "../helpers/shop";
import { everyShard } from "../helpers/every-shard";

// The order use-cases refuse about domain things and their routes name the
// fields: these are the whole bodies, every field in the order the checks run,
// so a change in that mapping shows here, not only in a missing key.

let shop: Shop;
beforeAll(async () => {
  shop = await createShop();
  await createPromocode(shop.ws, { code: "TERMS10", discount_percent: 10 });
});

const unknown = () => crypto.randomUUID();
const tooMany = `An order may issue at most ${MAX_VOUCHERS_PER_ORDER} vouchers (one per unit of its voucher lines).`;

const open = async (body: Record<string, unknown>) => {
  const res = await shop.ws.api("/orders", {
    method: "POST",
    body: { location_uuid: shop.location.uuid, staffer_uuid: shop.seller.uuid, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uuid: string };
};

describe("order refusals, field by field", () => {
  it("create lists the branch, customer, each line's fields, the promocode and the voucher count", async () => {
    const res = await shop.ws.api("/orders", {
      method: "POST",
      body: {
        location_uuid: unknown(),
        staffer_uuid: shop.seller.uuid,
        customer_uuid: unknown(),
        goods: [
          { good_uuid: shop.shampoo.uuid, price: 100, quantity: 1 },
          { good_uuid: unknown(), price: 100, quantity: 1, staffer_uuid: unknown() },
        ],
        services: [{ service_uuid: unknown(), price: 100, quantity: 1, booking_uuid: unknown() }],
        vouchers: [
          {
            voucher_template_uuid: unknown(),
            price: 100,
            quantity: MAX_VOUCHERS_PER_ORDER + 1,
          },
        ],
        promocode: "NOPE",
      },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: "Unknown location. (and 8 more errors)",
      code: "validation_failed",
      errors: {
        location_uuid: ["Unknown location."],
        customer_uuid: ["Unknown customer."],
        "goods.1.staffer_uuid": ["Unknown staffer."],
        "goods.1.good_uuid": ["Unknown good."],
        "services.0.booking_uuid": ["Unknown booking."],
        "services.0.service_uuid": ["Unknown service."],
        "vouchers.0.voucher_template_uuid": ["Unknown voucher template."],
        promocode: ["Unknown promocode."],
        vouchers: [tooMany],
      },
    });
  });

  it("create refuses its terms once the lines are right, the discount before the promocode's amount", async () => {
    const res = await shop.ws.api("/orders", {
      method: "POST",
      body: {
        location_uuid: shop.location.uuid,
        staffer_uuid: shop.seller.uuid,
        goods: [{ good_uuid: shop.shampoo.uuid, price: 1000, quantity: 1 }],
        discount_mode: "fixed",
        discount_amount: 1001,
        promocode: "TERMS10",
        promocode_discount_amount: 1,
      },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: "May not exceed the order's base amount. (and 1 more error)",
      code: "validation_failed",
      errors: {
        discount_amount: ["May not exceed the order's base amount."],
        promocode_discount_amount: ["May not exceed the amount left after the discount."],
      },
    });
  });

  it("create names the seller at staffer_uuid", async () => {
    const res = await shop.ws.api("/orders", {
      method: "POST",
      body: {
        location_uuid: shop.location.uuid,
        staffer_uuid: unknown(),
        goods: [{ good_uuid: shop.shampoo.uuid, price: 10, quantity: 1 }],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: "Unknown staffer.",
      code: "validation_failed",
      errors: { staffer_uuid: ["Unknown staffer."] },
    });
  });

  it("calculate lists the branch, the lines, the promocode, the terms and the voucher count in one 422", async () => {
    const res = await shop.ws.api("/orders/calculate", {
      method: "POST",
      body: {
        location_uuid: unknown(),
        goods: [{ good_uuid: shop.shampoo.uuid, price: 100, quantity: 1 }],
        vouchers: [
          { voucher_template_uuid: unknown(), price: 1, quantity: MAX_VOUCHERS_PER_ORDER + 1 },
        ],
        discount_amount: 101,
        promocode: "NOPE",
      },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: "Unknown location. (and 4 more errors)",
      code: "validation_failed",
      errors: {
        location_uuid: ["Unknown location."],
        "vouchers.0.voucher_template_uuid": ["Unknown voucher template."],
        promocode: ["Unknown promocode."],
        discount_amount: ["May not exceed the order's base amount."],
        vouchers: [tooMany],
      },
    });
  });

  it("pay answers account_requires_action on account_uuid", async () => {
    const order = await open({ goods: [{ good_uuid: shop.shampoo.uuid, price: 10, quantity: 1 }] });
    const res = await shop.ws.api(`/orders/${order.uuid}/pay`, {
      method: "POST",
      body: { account_uuid: shop.qr.uuid },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message:
        "This account takes payments out of band (QR or online); pay on a cash or card account.",
      code: "account_requires_action",
      errors: { account_uuid: ["The account needs an out-of-band payment action."] },
    });
  });

  it("pay refuses an order issuing more vouchers than the cap (opened before it) on vouchers", async () => {
    const order = await open({
      vouchers: [{ voucher_template_uuid: shop.giftCard.uuid, price: 1, quantity: 1 }],
    });
    // Orders opened before the cap existed may hold more: only the database can make one now.
    await everyShard
      .prepare("update order_lines set quantity = ? where order_id = ?")
      .bind(MAX_VOUCHERS_PER_ORDER + 1, order.uuid)
      .run();
    const res = await shop.ws.api(`/orders/${order.uuid}/pay`, {
      method: "POST",
      body: { account_uuid: shop.cash.uuid },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: tooMany,
      code: "validation_failed",
      errors: { vouchers: [tooMany] },
    });
  });

  it("refund refuses a QR account on account_uuid", async () => {
    const order = await open({ goods: [{ good_uuid: shop.shampoo.uuid, price: 10, quantity: 1 }] });
    const paid = await shop.ws.api(`/orders/${order.uuid}/pay`, {
      method: "POST",
      body: { account_uuid: shop.cash.uuid },
    });
    expect(paid.status).toBe(200);
    const res = await shop.ws.api(`/orders/${order.uuid}/refund`, {
      method: "POST",
      body: { account_uuid: shop.qr.uuid },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: "Refund from a cash or card account.",
      code: "validation_failed",
      errors: { account_uuid: ["Refund from a cash or card account."] },
    });
  });
});
