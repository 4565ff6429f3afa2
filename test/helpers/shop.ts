import { expect } from "vitest";
import { createStaffer, type TestWorkspace } from "./factory";
import { admin } from "./http";
import { createSalon, type Salon } from "./salon";

export interface Shop extends Salon {
  seller: { uuid: string };
  cash: { uuid: string };
  card: { uuid: string };
  qr: { uuid: string };
  shampoo: { uuid: string; price: number };
  wax: { uuid: string; price: number };
  giftCard: { uuid: string; price: number };
}

export async function createAccount(ws: TestWorkspace, locationId: string, type: string) {
  const res = await admin(`/workspaces/${ws.id}/accounts`, {
    method: "POST",
    body: { location_uuid: locationId, name: `${type} till`, type },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uuid: string };
}

export async function createGood(
  ws: TestWorkspace,
  body: Record<string, unknown>,
): Promise<{ uuid: string; price: number }> {
  const res = await ws.api("/goods", {
    method: "POST",
    body: { unit: "pcs", is_consumable: false, is_payable: true, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export async function createPromocode(ws: TestWorkspace, body: Record<string, unknown>) {
  const res = await admin(`/workspaces/${ws.id}/promocodes`, { method: "POST", body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uuid: string; code: string };
}

/** A salon with a seller holding access-pos, cash/card/qr tills and goods with stock. */
export async function createShop(): Promise<Shop> {
  const salon = await createSalon(2);
  const { ws, location } = salon;
  const seller = await createStaffer(ws, [location.uuid], {
    first_name: "Sam",
    permissions: ["access-pos"],
  });
  const [cash, card, qr] = await Promise.all([
    createAccount(ws, location.uuid, "cash"),
    createAccount(ws, location.uuid, "card"),
    createAccount(ws, location.uuid, "qr"),
  ]);
  const stock = (quantity: number) => ({
    is_set: true,
    location_uuid: location.uuid,
    unit_price: 400,
    quantity,
  });
  const shampoo = await createGood(ws, {
    name: "Shampoo",
    article: "SH-1",
    price: 1250,
    initial_stock: stock(10),
  });
  const wax = await createGood(ws, {
    name: "Wax",
    article: "WX-1",
    price: 899,
    initial_stock: stock(1),
  });
  const template = await admin(`/workspaces/${ws.id}/voucher-templates`, {
    method: "POST",
    body: { name: "Gift card 50", price: 5000 },
  });
  expect(template.status).toBe(201);
  return { ...salon, seller, cash, card, qr, shampoo, wax, giftCard: template.body };
}

/** Opens a POS order at the shop's branch, sold by its seller. */
export async function openOrder(shop: Shop, body: Record<string, unknown>) {
  const res = await shop.ws.api("/orders", {
    method: "POST",
    body: { location_uuid: shop.location.uuid, staffer_uuid: shop.seller.uuid, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uuid: string; total: number };
}

export const payOrder = (shop: Shop, orderId: string, body: Record<string, unknown>) =>
  shop.ws.api(`/orders/${orderId}/pay`, { method: "POST", body });

/** Sells `count` gift cards of `price` each, paid in cash: their codes, in issue order. */
export async function sellVouchers(shop: Shop, count: number, price = 5000) {
  const order = await openOrder(shop, {
    vouchers: [{ voucher_template_uuid: shop.giftCard.uuid, price, quantity: count }],
  });
  const paid = await payOrder(shop, order.uuid, { account_uuid: shop.cash.uuid });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  return { order: paid.body, codes: paid.body.vouchers[0].codes as string[] };
}

export async function voucherOf(shop: Shop, code: string) {
  const res = await shop.ws.api(`/vouchers/${code}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { balance: number; status: string; initial_amount: number };
}
