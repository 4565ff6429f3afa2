import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { periodStart } from "../../src/packages/rules";
import { failpoints } from "../../src/platform/failpoints";
import { zoneOffsets } from "../../src/catalogue/rules/zone-offsets";
import { dateOfDay, dayOf, dayOfDate } from "../../src/reports/rules/days";
import { settleCancelledBooking } from "../../src/payments/settle";
import { everyShard } from "../helpers/every-shard";
import { createLocation, createStaffer, createWorkspace } from "../helpers/factory";
import { createCustomer, createPackageTemplate } from "../helpers/packages";
import { bookingPayment, paidBooking, settlementLedger } from "../helpers/paid-booking";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import { createAccount, createGood, createShop, openOrder, type Shop } from "../helpers/shop";
import {
  cronAt,
  FOUR_COLOURS,
  renewalRows,
  sellOnline,
  shopWithMembership,
} from "../helpers/memberships";
import { REVENUE_SUMS, type RevenueSum } from "../../src/reports/rules/revenue-sums";
import { until } from "../helpers/messages";
import { admin } from "../helpers/http";

/**
 * The revenue rollup as the batches that move the money keep it: a sale on
 * the day its order became paid, a refund on the day it was refunded, a
 * complete on its day, fees when charged or kept, renewals when charged.
 */

type Sums = Record<RevenueSum, number>;
interface RollupRow extends Sums {
  dim: "day" | "staffer" | "service" | "payment_method";
  day: number;
  key: string;
  changes: number;
}

const rowsOf = async (locationId: string) =>
  (
    await everyShard
      .prepare("select * from report_revenue_days where location_id = ? order by dim, day, key")
      .bind(locationId)
      .all<RollupRow>()
  ).results;

const zero = (): Sums => Object.fromEntries(REVENUE_SUMS.map((s) => [s, 0])) as Sums;
const add = (a: Sums, b: Sums): Sums =>
  Object.fromEntries(REVENUE_SUMS.map((s) => [s, a[s] + b[s]])) as Sums;
const pick = (r: Sums): Sums => Object.fromEntries(REVENUE_SUMS.map((s) => [s, r[s]])) as Sums;

/** Each dimension's sums over every day and key of a location (or only the day given). */
async function byDim(locationId: string, day?: number) {
  const out: Record<string, Sums> = {};
  for (const r of await rowsOf(locationId)) {
    if (day !== undefined && r.day !== day) continue;
    out[r.dim] = add(out[r.dim] ?? zero(), pick(r));
  }
  return out;
}

/** One dimension's sums per key, over every day. */
async function byKey(locationId: string, dim: RollupRow["dim"]) {
  const out: Record<string, Sums> = {};
  for (const r of await rowsOf(locationId))
    if (r.dim === dim) out[r.key] = add(out[r.key] ?? zero(), pick(r));
  return out;
}

const money = (s: Sums) =>
  s.services_amount +
  s.goods_amount +
  s.vouchers_sold +
  s.packages_sold +
  s.fees -
  s.discounts -
  s.refunds;

/** The rows that say something, without their `changes` counter (a rebuild writes its own). */
const kept = async (locationId: string) =>
  (await rowsOf(locationId))
    .filter((r) => REVENUE_SUMS.some((s) => r[s] !== 0))
    .map((r) => ({ dim: r.dim, day: r.day, key: r.key, ...pick(r) }));

/** What the batches kept equals what a rebuild from the raw rows computes. */
async function expectRebuildAgrees(workspaceId: string, locationId: string) {
  const incremental = await kept(locationId);
  const res = await admin(
    `/workspaces/${workspaceId}/reports/rebuild?location_uuid=${locationId}`,
    {
      method: "POST",
    },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ locations: 1, rows: expect.any(Number) });
  expect(res.body.rows).toBeGreaterThanOrEqual(incremental.length);
  expect(await kept(locationId)).toEqual(incremental);
}

const berlinDay = (iso: string) => dayOf(Date.parse(iso), zoneOffsets("Europe/Berlin"));

afterEach(() => {
  failpoints.disarmAll();
  vi.useRealTimers();
});

describe("a POS order", () => {
  let shop: Shop;
  let anna: string;
  let tenCuts: { uuid: string };
  beforeAll(async () => {
    shop = await createShop();
    anna = await createCustomer(shop.ws, "+49 151 20000001");
    tenCuts = await createPackageTemplate(shop.ws, {
      name: "Ten cuts",
      price: 30000,
      credits: [{ service_uuids: [shop.cut.uuid], count: 10 }],
    });
  });

  it("paid: every dimension sums to its subtotal, the discount under discounts; refunded: refunds = subtotal on the refund's day", async () => {
    const order = await openOrder(shop, {
      customer_uuid: anna,
      goods: [{ good_uuid: shop.shampoo.uuid, price: 1250, quantity: 3 }],
      vouchers: [{ voucher_template_uuid: shop.giftCard.uuid, price: 5000, quantity: 1 }],
      packages: [{ package_uuid: tenCuts.uuid, price: 29999, quantity: 1 }],
      services: [
        {
          service_uuid: shop.cut.uuid,
          price: 3333,
          quantity: 1,
          staffer_uuid: shop.staffers[1]?.uuid,
        },
      ],
      discount_mode: "percent",
      discount_percent: 7,
    });
    const paid = await shop.ws.api(`/orders/${order.uuid}/pay`, {
      method: "POST",
      body: { account_uuid: shop.cash.uuid },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const base = 3750 + 5000 + 29999 + 3333;
    const discount = Math.round((base * 7) / 100);
    expect(paid.body.subtotal).toBe(base - discount);
    const day = berlinDay(paid.body.paid_at);
    const dims = await byDim(shop.location.uuid, day);
    expect(Object.keys(dims).sort()).toEqual(["day", "payment_method", "service", "staffer"]);
    for (const sums of Object.values(dims)) {
      expect(sums).toEqual({
        ...zero(),
        services_amount: 3333,
        goods_amount: 3750,
        vouchers_sold: 5000,
        packages_sold: 29999,
        discounts: discount,
      });
      expect(money(sums)).toBe(paid.body.subtotal);
    }
    // The service under its staffer and service; the rest under the seller and no service.
    const staffers = await byKey(shop.location.uuid, "staffer");
    expect(money(staffers[shop.staffers[1]?.uuid ?? ""] ?? zero())).toBeGreaterThan(0);
    expect(staffers[shop.staffers[1]?.uuid ?? ""]?.services_amount).toBe(3333);
    expect(staffers[shop.seller.uuid]?.goods_amount).toBe(3750);
    const services = await byKey(shop.location.uuid, "service");
    expect(services[shop.cut.uuid]?.services_amount).toBe(3333);
    expect(services[""]?.services_amount).toBe(0);
    const methods = await byKey(shop.location.uuid, "payment_method");
    expect(Object.keys(methods)).toEqual(["cash_account"]);

    const refunded = await shop.ws.api(`/orders/${order.uuid}/refund`, {
      method: "POST",
      body: {},
    });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    const row = await everyShard
      .prepare("select closed_at from orders where id = ?")
      .bind(order.uuid)
      .first<{ closed_at: number }>();
    const refundDay = dayOf(row?.closed_at ?? 0, zoneOffsets("Europe/Berlin"));
    const onRefundDay = await byDim(shop.location.uuid, refundDay);
    for (const dim of ["day", "staffer", "service", "payment_method"]) {
      expect(onRefundDay[dim]?.refunds, dim).toBe(paid.body.subtotal);
    }
    expect((await byKey(shop.location.uuid, "payment_method")).cash_account?.refunds).toBe(
      paid.body.subtotal,
    );
    for (const sums of Object.values(await byDim(shop.location.uuid))) expect(money(sums)).toBe(0);
    // Through the report: the day's sale and its refund.
    const date = dateOfDay(day);
    const report = await shop.ws.api(
      `/reports/revenue?location_uuid=${shop.location.uuid}&from=${date}&to=${dateOfDay(refundDay)}&group_by=payment_method`,
    );
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    expect(report.body.totals).toMatchObject({
      services_amount: 3333,
      goods_amount: 3750,
      vouchers_sold: 5000,
      packages_sold: 29999,
      discounts: discount,
      refunds: paid.body.subtotal,
      net: 0,
    });
    expect(report.body.data.map((r: { key: string | null }) => r.key)).toEqual(["cash_account"]);
    await expectRebuildAgrees(shop.ws.id, shop.location.uuid);
  });

  it("paid by many tills at once counts once", async () => {
    const before = await byDim(shop.location.uuid);
    const order = await openOrder(shop, {
      goods: [{ good_uuid: shop.shampoo.uuid, price: 1000, quantity: 1 }],
    });
    failpoints.meet("orders.pay.before_write", 4);
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        shop.ws.api(`/orders/${order.uuid}/pay`, {
          method: "POST",
          body: { account_uuid: shop.card.uuid },
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    const after = await byDim(shop.location.uuid);
    for (const dim of ["day", "staffer", "service", "payment_method"])
      expect((after[dim]?.goods_amount ?? 0) - (before[dim]?.goods_amount ?? 0), dim).toBe(1000);
    expect((await byKey(shop.location.uuid, "payment_method")).card_account?.goods_amount).toBe(
      1000,
    );
    await expectRebuildAgrees(shop.ws.id, shop.location.uuid);
  });

  it("paid at 23:30 local time in New York lands on that local day", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    // 2031-01-15T04:30Z is 23:30 on the 14th in New York (UTC−5 in winter).
    vi.setSystemTime(new Date("2031-01-15T04:30:00Z"));
    const ws = await createWorkspace({
      timezone: "America/New_York",
      currency: "USD",
      country: "US",
    });
    const location = await createLocation(ws, { timezone: "America/New_York" });
    const cash = await createAccount(ws, location.uuid, "cash");
    const seller = await createStaffer(ws, [location.uuid], { permissions: ["access-pos"] });
    const comb = await createGood(ws, { name: "Comb", article: "CB-1", price: 700 });
    const opened = await ws.api("/orders", {
      method: "POST",
      body: {
        location_uuid: location.uuid,
        staffer_uuid: seller.uuid,
        goods: [{ good_uuid: comb.uuid, price: 700, quantity: 1 }],
      },
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const paid = await ws.api(`/orders/${opened.body.uuid}/pay`, {
      method: "POST",
      body: { account_uuid: cash.uuid },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.paid_at).toBe("2031-01-15T04:30:00Z");
    const rows = await rowsOf(location.uuid);
    expect(rows.length).toBe(4);
    const day = dayOfDate("2031-01-14");
    expect(day).toBe(dayOf(Date.parse(paid.body.paid_at), zoneOffsets("America/New_York")));
    await expectRebuildAgrees(ws.id, location.uuid);
    for (const r of rows)
      expect({ dim: r.dim, day: r.day, goods: r.goods_amount }).toMatchObject({ day, goods: 700 });
  });
});

describe("booking orders", () => {
  let salon: Salon;
  let till: { uuid: string };
  let week = 0;
  const nextDate = () =>
    new Date(Date.UTC(2031, 2, 3) + week++ * 7 * 86_400_000).toISOString().slice(0, 10);
  beforeAll(async () => {
    salon = await createSalon(2);
    till = await createAccount(salon.ws, salon.location.uuid, "card");
  });
  const complete = (id: string, body: Record<string, unknown> = {}) =>
    salon.ws.api(`/bookings/${id}/status/complete`, {
      method: "PUT",
      body: { account_uuid: till.uuid, ...body },
    });
  /** One cut with the first staffer at `time` on `date`: the booking's uuid. */
  const bookCut = async (time: string, date: string, phone: string) => {
    const made = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: at(time, date),
        staffer_uuid: salon.staffers[0]?.uuid,
        ...customer(phone),
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    return made.body.uuid as string;
  };
  /** A cart of one cut with each of the first two staffers on `date`, at `times`: its bookings. */
  const cutsCart = async (date: string, times: [string, string], phone: string) => {
    const cart = await salon.ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: times.map((time, i) => ({
          datetime_start: at(time, date),
          services: [{ service_uuid: salon.cut.uuid, staffer_uuid: salon.staffers[i]?.uuid }],
        })),
        ...customer(phone),
      },
    });
    expect(cart.status, JSON.stringify(cart.body)).toBe(201);
    return cart.body.bookings as { uuid: string; order: { uuid: string } }[];
  };

  it("a partial complete counts the completion, not the sale; a second complete is refused and adds nothing", async () => {
    const before = await byDim(salon.location.uuid);
    const made = await bookCut("10:00", nextDate(), "+49 151 20000002");
    const first = await complete(made, { paid_amount: 2000 });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const order = await everyShard
      .prepare("select o.status from orders o join bookings b on b.order_id = o.id where b.id = ?")
      .bind(made)
      .first<{ status: string }>();
    expect(order?.status).toBe("open");
    expect((await complete(made)).status).toBe(409);
    const after = await byDim(salon.location.uuid);
    for (const dim of ["day", "staffer", "service", "payment_method"]) {
      const was = before[dim] ?? zero();
      const now = after[dim] ?? zero();
      expect(now.bookings_completed - was.bookings_completed, dim).toBe(1);
      expect(money(now) - money(was), dim).toBe(0);
    }
    expect(
      (await byKey(salon.location.uuid, "payment_method")).card_account?.bookings_completed,
    ).toBeGreaterThan(0);
  });

  it("a cart's order: each complete counts, the whole order's sale once when the last settles it", async () => {
    const before = await byDim(salon.location.uuid);
    const [a, b] = salon.staffers;
    const date = nextDate();
    const cart = await salon.ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [
          {
            datetime_start: at("09:00", date),
            services: [
              { service_uuid: salon.cut.uuid, staffer_uuid: a?.uuid },
              { service_uuid: salon.colour.uuid, staffer_uuid: b?.uuid },
            ],
          },
          {
            datetime_start: at("14:00", date),
            services: [{ service_uuid: salon.colour.uuid, staffer_uuid: a?.uuid }],
          },
        ],
        ...customer("+49 151 20000003"),
      },
    });
    expect(cart.status, JSON.stringify(cart.body)).toBe(201);
    const [one, two] = cart.body.bookings as { uuid: string; order: { total: number } }[];
    const total = 3500 + 7900 + 7900;
    expect(one?.order.total).toBe(total);
    const first = await complete(one?.uuid ?? "");
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const mid = await byDim(salon.location.uuid);
    expect((mid.day?.services_amount ?? 0) - (before.day?.services_amount ?? 0)).toBe(0);
    const second = await complete(two?.uuid ?? "");
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.order.amount_paid).toBe(total);
    const after = await byDim(salon.location.uuid);
    for (const dim of ["day", "staffer", "service", "payment_method"]) {
      const was = before[dim] ?? zero();
      const now = after[dim] ?? zero();
      expect(now.services_amount - was.services_amount, dim).toBe(total);
      expect(money(now) - money(was), dim).toBe(total);
    }
    // Completions: one per complete in the day's total; per staffer/service, each of the booking's.
    expect((after.day?.bookings_completed ?? 0) - (before.day?.bookings_completed ?? 0)).toBe(2);
    expect(
      (after.staffer?.bookings_completed ?? 0) - (before.staffer?.bookings_completed ?? 0),
    ).toBe(3);
    expect(
      (after.service?.bookings_completed ?? 0) - (before.service?.bookings_completed ?? 0),
    ).toBe(3);
    const byService = await byKey(salon.location.uuid, "service");
    expect(byService[salon.colour.uuid]?.services_amount).toBeGreaterThanOrEqual(2 * 7900);
  });

  it("two completes racing to settle one order: the sale counts once", async () => {
    const before = await byDim(salon.location.uuid);
    const date = nextDate();
    const ids = (await cutsCart(date, ["09:00", "09:00"], "+49 151 20000004")).map((b) => b.uuid);
    // Each pays the whole order: both would settle it; the loser retries on the paid order.
    failpoints.meet("booking.change.before_write", 2, 1_000);
    const results = await Promise.all(ids.map((id) => complete(id, { paid_amount: 7000 })));
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    const after = await byDim(salon.location.uuid);
    expect((after.day?.services_amount ?? 0) - (before.day?.services_amount ?? 0)).toBe(7000);
    expect((after.day?.bookings_completed ?? 0) - (before.day?.bookings_completed ?? 0)).toBe(2);
    // And the same booking completed twice at once: one completion.
    const made = await bookCut("15:00", date, "+49 151 20000005");
    failpoints.meet("booking.change.before_write", 2, 1_000);
    const twice = await Promise.all([complete(made), complete(made)]);
    expect(twice.map((r) => r.status).sort()).toEqual([200, 409]);
    const last = await byDim(salon.location.uuid);
    expect((last.day?.bookings_completed ?? 0) - (after.day?.bookings_completed ?? 0)).toBe(1);
    expect((last.day?.services_amount ?? 0) - (after.day?.services_amount ?? 0)).toBe(3500);
    await expectRebuildAgrees(salon.ws.id, salon.location.uuid);
  });

  it("a cart completed at two tills: each completion under its own till, the sale under the settling one; a rebuild agrees", async () => {
    const cash = await createAccount(salon.ws, salon.location.uuid, "cash");
    const before = await byKey(salon.location.uuid, "payment_method");
    const date = nextDate();
    const [one, two] = await cutsCart(date, ["09:00", "11:00"], "+49 151 20000006");
    // The first till takes the whole order (cash); the second completes at the card till.
    const first = await complete(one?.uuid ?? "", { account_uuid: cash.uuid, paid_amount: 7000 });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.order.amount_paid).toBe(7000);
    const second = await complete(two?.uuid ?? "", { paid_amount: 0 });
    expect(second.status, JSON.stringify(second.body)).toBe(200);

    const method = await everyShard
      .prepare("select status, payment_method, account_id from orders where id = ?")
      .bind(one?.order.uuid ?? "")
      .first<{ status: string; payment_method: string; account_id: string }>();
    expect(method).toEqual({
      status: "paid",
      payment_method: "cash_account",
      account_id: cash.uuid,
    });
    const completed = await everyShard
      .prepare("select id, completed_payment_method from bookings where order_id = ? order by id")
      .bind(one?.order.uuid ?? "")
      .all<{ id: string; completed_payment_method: string }>();
    expect(
      Object.fromEntries(completed.results.map((r) => [r.id, r.completed_payment_method])),
    ).toEqual({ [one?.uuid ?? ""]: "cash_account", [two?.uuid ?? ""]: "card_account" });

    const after = await byKey(salon.location.uuid, "payment_method");
    const moved = (key: string, sum: keyof Sums) =>
      (after[key]?.[sum] ?? 0) - (before[key]?.[sum] ?? 0);
    expect(moved("cash_account", "bookings_completed")).toBe(1);
    expect(moved("card_account", "bookings_completed")).toBe(1);
    expect(moved("cash_account", "services_amount")).toBe(7000);
    expect(moved("card_account", "services_amount")).toBe(0);
    await expectRebuildAgrees(salon.ws.id, salon.location.uuid);
  });
});

describe("fees", () => {
  let salon: Salon;
  let week = 0;
  const nextDate = () =>
    new Date(Date.UTC(2031, 5, 2) + week++ * 7 * 86_400_000).toISOString().slice(0, 10);
  beforeAll(async () => {
    salon = await createSalon(1);
  });
  const settledRows = (bookingId: string) =>
    until(async () => {
      const payment = await bookingPayment(bookingId);
      const rows = await settlementLedger(bookingId);
      return payment?.settledAt && rows.every((r) => r.status !== "pending") ? payment : false;
    });

  it("a late cancel's fee kept out of the deposit counts when settled, under the first service and staffer and online_account", async () => {
    const b = await paidBooking(salon, nextDate(), "09:00", {
      paid: 3000,
      cancelFeeFrom: Date.now() - 3_600_000,
    });
    const res = await salon.ws.api(`/bookings/${b.bookingId}/status/cancel`, {
      method: "PUT",
      body: { charge_fee: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The after-write hook settles it; settling again is a no-op.
    await settledRows(b.bookingId);
    const payment = await bookingPayment(b.bookingId);
    if (!payment) throw new Error("no payment");
    expect(payment).toMatchObject({ paidOnline: 3000, refunded: 2000, feeKept: 1000 });
    expect(await settleCancelledBooking(env, salon.ws.id, b.bookingId)).toMatchObject({
      settled: false,
    });
    const day = dayOf(payment.settledAt ?? 0, zoneOffsets("Europe/Berlin"));
    const rows = (await rowsOf(salon.location.uuid)).filter((r) => r.day === day && r.fees > 0);
    expect(rows.map((r) => [r.dim, r.key, r.fees]).sort()).toEqual(
      [
        ["day", "", 1000],
        ["payment_method", "online_account", 1000],
        ["service", salon.cut.uuid, 1000],
        ["staffer", salon.staffers[0]?.uuid, 1000],
      ].sort(),
    );
  });

  it("a no-show fee charged to the saved card counts when the charge succeeded", async () => {
    const before = await byDim(salon.location.uuid);
    const b = await paidBooking(salon, nextDate(), "09:00", { paid: 0, cancelFeeFrom: null });
    const res = await salon.ws.api(`/bookings/${b.bookingId}/status/cancel`, {
      method: "PUT",
      body: { charge_fee: true, cancel_reason: "didnt_come" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await settledRows(b.bookingId);
    expect(await settlementLedger(b.bookingId)).toMatchObject([
      { kind: "no_show_fee", amount: 2500, status: "succeeded" },
    ]);
    expect((await bookingPayment(b.bookingId))?.feeKept ?? null).toBeNull();
    const after = await byDim(salon.location.uuid);
    for (const dim of ["day", "staffer", "service", "payment_method"])
      expect((after[dim]?.fees ?? 0) - (before[dim]?.fees ?? 0), dim).toBe(2500);
    await expectRebuildAgrees(salon.ws.id, salon.location.uuid);
  });
});

describe("memberships", () => {
  it("sold online counts as packages_sold under online_account; a renewal charged adds packages_sold", async () => {
    const { shop, anna, monthly } = await shopWithMembership(FOUR_COLOURS);
    const { membership } = await sellOnline(shop, anna, monthly);
    const sold = await byKey(shop.location.uuid, "payment_method");
    expect(sold.online_account?.packages_sold).toBe(FOUR_COLOURS.price);
    await cronAt(periodStart(membership.starts_at, 2) + 1_000);
    expect(await renewalRows(membership.id)).toMatchObject([{ period: 2, status: "succeeded" }]);
    for (const sums of Object.values(await byDim(shop.location.uuid)))
      expect(sums.packages_sold).toBe(2 * FOUR_COLOURS.price);
    await expectRebuildAgrees(shop.ws.id, shop.location.uuid);
  });
});
