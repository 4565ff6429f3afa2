import { env } from "cloudflare:workers";
import { exchange, ORIGIN } from "./client";
import { emptyPools, remember, type Tenant, type World } from "./world";

/**
 * The records the fuzz works on: a "shop" workspace built so that valid bodies
 * succeed (a Berlin location whose staffers work Mon–Fri 09–18, a seller with
 * access-pos, tills, goods with stock, promocodes, a loopback webhook…), and a
 * "foreign" workspace whose ids must never be reachable with the shop's key.
 * Built through the same direct fetch as the fuzz itself.
 */

export const PUBLIC_BASE = "/api/public/v2";
export const ADMIN_BASE = "/api/admin/v1";
export const adminToken = () => env.ADMIN_TOKEN ?? "test-admin-token";

type Body = Record<string, unknown>;

async function call(
  path: string,
  init: { method?: string; body?: unknown; auth: string; ws?: string },
) {
  const headers = new Headers({ authorization: `Bearer ${init.auth}` });
  if (init.ws) headers.set("workspace", init.ws);
  if (init.body !== undefined) headers.set("content-type", "application/json");
  const res = await exchange(
    new Request(`${ORIGIN}${path}`, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    }),
  );
  if (res.status >= 300)
    throw new Error(
      `fuzz fixture: ${init.method ?? "POST"} ${path} → ${res.status} ${res.text.slice(0, 500)}`,
    );
  return res.json as Body;
}

const admin = (path: string, body?: unknown) =>
  call(`${ADMIN_BASE}${path}`, { body, method: "POST", auth: adminToken() });

const weekdays = (location: string) =>
  [1, 2, 3, 4, 5].map((weekday) => ({
    location_uuid: location,
    weekday,
    start: "09:00",
    end: "18:00",
  }));

/** What later requests need to know about a rendered booking: its iCal token and its services. */
export function learnBooking(world: World, booking: unknown) {
  const token = icalToken(booking);
  if (token) world.icalTokens.set(...token);
  const b = booking as { uuid?: unknown; ordered_services?: { service_uuid?: unknown }[] };
  if (typeof b?.uuid === "string" && Array.isArray(b.ordered_services))
    world.bookingServices.set(
      b.uuid,
      b.ordered_services
        .map((s) => s?.service_uuid)
        .filter((x): x is string => typeof x === "string"),
    );
}

/** Pulls the iCal token out of a rendered booking's links. */
export function icalToken(booking: unknown): [string, string] | null {
  const b = booking as { uuid?: unknown; links?: { type?: string; link?: string }[] };
  const link = Array.isArray(b?.links) ? b.links.find((l) => l?.type === "ical")?.link : undefined;
  if (typeof b?.uuid !== "string" || !link) return null;
  try {
    const token = new URL(link, ORIGIN).searchParams.get("token");
    return token ? [b.uuid, token] : null;
  } catch {
    return null;
  }
}

async function tenant(name: string, world: World | null): Promise<Tenant> {
  const created = await admin("/workspaces", {
    name,
    country: "DE",
    currency: "EUR",
    timezone: "Europe/Berlin",
  });
  const ws = created.uuid as string;
  const wsPath = `/workspaces/${ws}`;
  const t: Tenant = {
    ws,
    keys: [{ id: "", key: created.api_key as string, used: 0 }],
    pools: emptyPools(),
  };
  const p = t.pools;
  const api = (path: string, body?: unknown, method?: string) =>
    call(`${PUBLIC_BASE}${path}`, { body, method, auth: t.keys[0]?.key ?? "", ws });
  p.workspace.fixed.push(ws);

  const main = (
    await admin(`${wsPath}/locations`, { name: "Main street", timezone: "Europe/Berlin" })
  ).uuid as string;
  const other = (
    await admin(`${wsPath}/locations`, { name: "Harbour", timezone: "America/New_York" })
  ).uuid as string;
  p.location.fixed.push(main);
  remember(p.location, other);

  const staffer = async (body: Body) => (await admin(`${wsPath}/staffers`, body)).uuid as string;
  const seller = await staffer({
    first_name: "Sam",
    location_uuids: [main],
    permissions: ["access-pos"],
    schedule: weekdays(main),
  });
  const second = await staffer({
    first_name: "Kim",
    location_uuids: [main],
    schedule: weekdays(main),
  });
  const schedulable = await staffer({
    first_name: "Lou",
    location_uuids: [main, other],
    schedule: weekdays(main),
  });
  const abroad = await staffer({
    first_name: "Ana",
    location_uuids: [other],
    schedule: weekdays(other),
  });
  p.seller.fixed.push(seller);
  p.staffer.fixed.push(seller, second);
  remember(p.staffer, abroad);
  p.schedulable.fixed.push(schedulable);

  const serviceCategory = (await admin(`${wsPath}/categories`, { name: "Hair", kind: "service" }))
    .uuid as string;
  const goodCategory = (await admin(`${wsPath}/categories`, { name: "Care", kind: "good" }))
    .uuid as string;
  p.category_service.fixed.push(serviceCategory);
  p.category_good.fixed.push(goodCategory);

  const cut = (
    await api("/services", {
      name: "Haircut",
      duration: 45,
      price: 3500,
      is_pause: true,
      pause: 15,
      category_uuid: serviceCategory,
    })
  ).uuid as string;
  const colour = (
    await api("/services", { name: "Colouring", duration: 90, price: 8900, price_discount: 7900 })
  ).uuid as string;
  const room = (
    await admin(`${wsPath}/resources`, {
      location_uuid: main,
      name: "Treatment room",
      kind: "room",
      quantity: 2,
    })
  ).uuid as string;
  p.resource.fixed.push(room);
  // A service that needs the room: bookings, carts and changes of it take a unit too.
  const massage = (
    await api("/services", { name: "Massage", duration: 60, price: 7000, resource_uuids: [room] })
  ).uuid as string;
  p.service.fixed.push(cut, colour, massage);

  const stock = (quantity: number) => ({
    is_set: true,
    location_uuid: main,
    unit_price: 400,
    quantity,
  });
  for (const [article, price, quantity] of [
    ["SH-1", 1250, 1_000_000],
    ["WX-1", 899, 5],
  ] as const) {
    const good = await api("/goods", {
      name: article,
      article,
      price,
      unit: "pcs",
      is_consumable: false,
      is_payable: true,
      initial_stock: stock(quantity),
      category_uuid: goodCategory,
    });
    p.good.fixed.push(good.uuid as string);
  }

  for (const type of ["cash", "card"])
    p.account.fixed.push(
      (await admin(`${wsPath}/accounts`, { location_uuid: main, name: `${type} till`, type }))
        .uuid as string,
    );
  remember(
    p.account,
    (await admin(`${wsPath}/accounts`, { location_uuid: other, name: "cash abroad", type: "cash" }))
      .uuid as string,
  );

  p.voucher_template.fixed.push(
    (await admin(`${wsPath}/voucher-templates`, { name: "Gift card", price: 5000 })).uuid as string,
  );
  p.status.fixed.push(
    (await admin(`${wsPath}/booking-statuses`, { name: "No show", type: "no_show" }))
      .uuid as string,
  );
  p.promocode.fixed.push(
    (await admin(`${wsPath}/promocodes`, { code: `${name.toUpperCase()}10`, discount_percent: 10 }))
      .code as string,
  );
  p.promocode.fixed.push(
    (await admin(`${wsPath}/promocodes`, { code: `${name.toUpperCase()}5`, discount_amount: 500 }))
      .code as string,
  );
  p.customer.fixed.push(
    (await admin(`${wsPath}/customers`, { first_name: "Anna", phone: "+49 151 23456789" }))
      .uuid as string,
  );

  for (const events of [["booking-created", "order-paid"], ["customer-created"], ["order-created"]])
    p.webhook.fixed.push(
      String((await api("/webhooks", { url: "http://127.0.0.1:9/hooks", events })).id),
    );

  for (const at of ["2030-03-04T09:00:00Z", "2030-03-05T10:00:00Z"]) {
    const booking = await api("/bookings", {
      location_uuid: main,
      service_uuid: cut,
      staffer_uuid: second,
      reserved_on: at,
      customer_phone: "+49 151 23456789",
      customer_first_name: "Anna",
    });
    p.booking.fixed.push(booking.uuid as string);
    if (world) learnBooking(world, booking);
  }
  p.order.fixed.push(
    (
      await api("/orders", {
        location_uuid: main,
        staffer_uuid: seller,
        goods: [{ good_uuid: p.good.fixed[0], price: 1250, quantity: 1 }],
      })
    ).uuid as string,
  );

  // A key only the fuzz's DELETE may revoke (the keys it authenticates with are never offered).
  p.api_key.fixed.push((await admin(`${wsPath}/api-keys`)).id as string);
  return t;
}

export async function buildWorld(shard: number): Promise<World> {
  const world: World = {
    shop: undefined as unknown as Tenant,
    foreign: undefined as unknown as Tenant,
    icalTokens: new Map(),
    bookingServices: new Map(),
  };
  world.shop = await tenant(`shop${shard}`, world);
  world.foreign = await tenant(`foreign${shard}`, null);
  return world;
}

/** Another API key for the shop, when the ones in use approach the per-key rate limit. */
export async function issueKey(t: Tenant) {
  const res = await admin(`/workspaces/${t.ws}/api-keys`);
  t.keys.push({ id: res.id as string, key: res.api_key as string, used: 0 });
}
