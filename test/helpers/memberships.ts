import {
  createExecutionContext,
  createScheduledController,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import worker from "../../src/index";
import { everyShard } from "./every-shard";
import { createCustomer, createPackageTemplate, type TestPackage } from "./packages";
import { deliverEvents, sessionOf } from "./payments";
import type { Shop } from "./shop";
import { createShop, openOrder } from "./shop";
import { payCheckout, stripeLedger } from "./stripe";

export const PAGES = {
  success_url: "https://salon.example/paid?session={CHECKOUT_SESSION_ID}",
  cancel_url: "https://salon.example/back",
};

/** A monthly membership template: `count` credits a month on one of the shop's services. */
export interface MonthlyTemplate {
  name: string;
  price: number;
  service: "cut" | "colour";
  count: number;
}

export const FOUR_COLOURS: MonthlyTemplate = {
  name: "4 colours a month",
  price: 7900,
  service: "colour",
  count: 4,
};

/** A fresh shop, its customer Anna and a monthly membership template to sell her. */
export async function shopWithMembership(template: MonthlyTemplate) {
  const shop = await createShop();
  const anna = await createCustomer(shop.ws);
  const monthly: TestPackage = await createPackageTemplate(shop.ws, {
    name: template.name,
    price: template.price,
    credits: [{ service_uuids: [shop[template.service].uuid], count: template.count }],
    valid_days: 31,
    renews: { every: "month" },
  });
  return { shop, anna, monthly };
}

/** The cron as the runtime fires it, at `scheduledTime` (the renewal sweep's clock). */
export async function cronAt(scheduledTime: number) {
  const ctx = createExecutionContext();
  await worker.scheduled(
    createScheduledController({ scheduledTime, cron: "* * * * *" }),
    env as unknown as Env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
}

/** Opens `POST /orders/{uuid}/checkout` (201 asserted): the session's id and the page. */
export async function orderCheckout(shop: Shop, orderId: string) {
  const res = await shop.ws.api(`/orders/${orderId}/checkout`, { method: "POST", body: PAGES });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const url = res.body.checkout_url as string;
  return { session: sessionOf(url), url, expires_at: res.body.expires_at as string };
}

/**
 * Sells one unit of `pkg` to `customerId` through an order paid on the hosted
 * page with `card`, the provider's events delivered: the order and the
 * membership it issued.
 */
export async function sellOnline(
  shop: Shop,
  customerId: string,
  pkg: { uuid: string; price: number },
  card = "4242424242424242",
) {
  const order = await openOrder(shop, {
    customer_uuid: customerId,
    packages: [{ package_uuid: pkg.uuid, price: pkg.price, quantity: 1 }],
  });
  const { session } = await orderCheckout(shop, order.uuid);
  const paid = await payCheckout(session, card);
  expect(paid.status, JSON.stringify(paid)).toBe("complete");
  const { answers } = await deliverEvents(shop.ws.id);
  const completed = answers.find((a) => a.type === "checkout.session.completed");
  expect(completed?.status, JSON.stringify(answers)).toBe(200);
  expect(completed?.body.handled).toBe("handled");
  const membership = await everyShard
    .prepare("select * from customer_packages where order_id = ?")
    .bind(order.uuid)
    .first<MembershipRow>();
  if (!membership) throw new Error("no membership issued");
  return { order, session, membership };
}

export interface MembershipRow {
  id: string;
  period: number;
  renewing: number;
  past_due: number;
  next_charge_at: number | null;
  starts_at: number;
  expires_at: number;
  provider_customer: string | null;
  payment_method: string | null;
  location_id: string;
  status: string;
}

export const membershipRow = (id: string) =>
  everyShard
    .prepare("select * from customer_packages where id = ?")
    .bind(id)
    .first<MembershipRow>()
    .then((r) => {
      if (!r) throw new Error(`no membership ${id}`);
      return r;
    });

/** The credits issued for each period of a membership: period → rows. */
export const creditPeriods = (id: string) =>
  everyShard
    .prepare(
      "select period, total, used from customer_package_credits where customer_package_id = ? order by period, position",
    )
    .bind(id)
    .all<{ period: number; total: number; used: number }>()
    .then((r) => r.results);

export const renewalRows = (id: string) =>
  everyShard
    .prepare(
      "select period, status, attempt, failure_reason, provider_ref from package_renewals where customer_package_id = ? order by period",
    )
    .bind(id)
    .all<{
      period: number;
      status: string;
      attempt: number;
      failure_reason: string | null;
      provider_ref: string | null;
    }>()
    .then((r) => r.results);

/** Events of a type the workspace wrote about a membership (its uuid in the data). */
export const eventsAbout = (workspaceId: string, type: string, id: string) =>
  everyShard
    .prepare("select payload from events where workspace_id = ? and type = ?")
    .bind(workspaceId, type)
    .all<{ payload: string }>()
    .then((r) =>
      r.results
        .map((e) => JSON.parse(e.payload) as Record<string, unknown>)
        .filter((p) => p.uuid === id),
    );

/** The off-session charges (not the hosted page's) stripe-local made for a membership. */
export async function renewalCharges(workspaceId: string, paymentIntents?: Set<string>) {
  const ledger = await stripeLedger(workspaceId);
  const api = ledger.entries.filter(
    (e) => e.source === "api" && (!paymentIntents || paymentIntents.has(e.payment_intent)),
  );
  return {
    succeeded: api.filter((e) => e.kind === "charge_succeeded"),
    failed: api.filter((e) => e.kind === "charge_failed"),
    refunds: ledger.entries.filter((e) => e.kind === "refund"),
  };
}
