import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { failpoints } from "../../src/platform/failpoints";
import { everyShard } from "../helpers/every-shard";
import { calendarBatch, withFailingInserts } from "../helpers/faults";
import { type Client, d1RoundTrips } from "../helpers/http";
import { createPublishableKey } from "../helpers/keys";
import { createExpressService } from "../helpers/packages";
import { at, createSalon, customer, type Salon } from "../helpers/salon";

/**
 * Booking with a customer package's credit (POST /bookings, the cart, a
 * series): the service costs 0 (its price shown as the discount), a credit is
 * reserved in the booking's own batch, and credits never go below zero under
 * concurrency. Packages are planted as rows here: selling them is another file's.
 */

let salon: Salon;
let other: Salon;
let widget: Client;
let express: { uuid: string; price: number };
/** The customer who owns the packages (found by phone), and another one. */
let anna: string;
let ben: string;
const ANNA = "+49 151 23456789";
const BEN = "+49 151 99999999";
const FAR = Date.parse("2031-01-01T00:00:00Z");

let week = 0;
/** A fresh Monday for each test: no two tests share a time. */
const nextMonday = () => {
  week += 1;
  return new Date(Date.UTC(2030, 5, 3) + week * 7 * 86_400_000).toISOString().slice(0, 10);
};

interface Planted {
  id: string;
  creditId: string;
}

/** A customer package with one credit naming `services` (`total`, `used` taken). */
async function plant(
  ws: Salon,
  customerId: string,
  services: string[],
  opts: {
    total?: number;
    used?: number;
    expiresAt?: number;
    status?: string;
    pastDue?: boolean;
  } = {},
): Promise<Planted> {
  const now = Date.now();
  const templateId = crypto.randomUUID();
  const id = crypto.randomUUID();
  const creditId = crypto.randomUUID();
  const total = opts.total ?? 1;
  const expiresAt = opts.expiresAt ?? FAR;
  await everyShard
    .prepare(
      "insert into packages (id, workspace_id, name, price, currency, credits, valid_days, created_at, updated_at) values (?, ?, 'Ten cuts', 30000, 'EUR', ?, 365, ?, ?)",
    )
    .bind(templateId, ws.ws.id, JSON.stringify([{ service_ids: services, count: total }]), now, now)
    .run();
  await everyShard
    .prepare(
      "insert into customer_packages (id, workspace_id, package_id, customer_id, order_id, order_line_id, name, price, currency, valid_days, credit_lines, status, starts_at, expires_at, past_due, location_id, created_at, updated_at) values (?, ?, ?, ?, ?, ?, 'Ten cuts', 30000, 'EUR', 365, '[]', ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(
      id,
      ws.ws.id,
      templateId,
      customerId,
      crypto.randomUUID(),
      crypto.randomUUID(),
      opts.status ?? "active",
      now,
      expiresAt,
      opts.pastDue ? 1 : 0,
      ws.location.uuid,
      now,
      now,
    )
    .run();
  await everyShard
    .prepare(
      "insert into customer_package_credits (id, workspace_id, customer_package_id, period, position, service_ids, total, used, reserved, expires_at) values (?, ?, ?, 1, 0, ?, ?, ?, 0, ?)",
    )
    .bind(creditId, ws.ws.id, id, JSON.stringify(services), total, opts.used ?? 0, expiresAt)
    .run();
  return { id, creditId };
}

const counts = async (creditId: string) =>
  (await everyShard
    .prepare("select total, used, reserved from customer_package_credits where id = ?")
    .bind(creditId)
    .first<{ total: number; used: number; reserved: number }>()) ?? {
    total: 0,
    used: 0,
    reserved: 0,
  };

const usesOf = async (packageId: string) =>
  (
    await everyShard
      .prepare(
        "select booking_id, booking_service_id, state, count, late_cancel_minutes, no_show_uses from package_credit_uses where customer_package_id = ?",
      )
      .bind(packageId)
      .all<{
        booking_id: string;
        booking_service_id: string;
        state: string;
        count: number;
        late_cancel_minutes: number | null;
        no_show_uses: number;
      }>()
  ).results;

const rowCount = async (table: string, ws = salon) =>
  Number(
    (
      await everyShard
        .prepare(`select count(*) as n from ${table} where workspace_id = ?`)
        .bind(ws.ws.id)
        .first<{ n: number }>()
    )?.n ?? 0,
  );

const book = (
  start: string,
  extra: Record<string, unknown> = {},
  api: Client = salon.ws.api,
  phone = ANNA,
) =>
  api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      reserved_on: start,
      ...customer(phone),
      ...extra,
    },
  });

beforeAll(async () => {
  salon = await createSalon(3);
  other = await createSalon(1);
  widget = (await createPublishableKey(salon.ws)).api;
  express = await createExpressService(salon.ws);
  // The customers exist once they booked (a package is sold to a known customer).
  const first = await book(at("08:00", "2030-05-06"));
  expect(first.status, JSON.stringify(first.body)).toBe(201);
  anna = first.body.customer_uuid;
  const second = await book(at("10:00", "2030-05-06"), {}, salon.ws.api, BEN);
  expect(second.status, JSON.stringify(second.body)).toBe(201);
  ben = second.body.customer_uuid;
});

afterEach(() => failpoints.disarmAll());

describe("POST /bookings with customer_package_uuid", () => {
  it("books the service at price 0 (its price the discount), reserves one credit, in no more D1 round trips than a booking without one", async () => {
    const pkg = await plant(salon, anna, [salon.cut.uuid], { total: 3 });
    const date = nextMonday();
    const plain = await book(at("08:00", date));
    expect(plain.status, JSON.stringify(plain.body)).toBe(201);
    const res = await book(at("10:00", date), { customer_package_uuid: pkg.id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.customer_uuid).toBe(anna);
    const [service] = res.body.ordered_services;
    expect(service).toMatchObject({ price: 0, discount: 3500, original_price: 3500 });
    expect(res.body.order).toMatchObject({ subtotal: 0, total: 0 });
    expect(await counts(pkg.creditId)).toEqual({ total: 3, used: 0, reserved: 1 });
    const uses = await usesOf(pkg.id);
    expect(uses).toEqual([
      {
        booking_id: res.body.uuid,
        booking_service_id: service.uuid,
        state: "reserved",
        count: 1,
        late_cancel_minutes: null,
        no_show_uses: 0,
      },
    ]);
    const [withCredit, without] = [d1RoundTrips(res.headers), d1RoundTrips(plain.headers)];
    console.log(`D1 round trips: with a credit ${withCredit}, without ${without}`);
    expect(withCredit).toBe(without);
  });

  it("copies the service's late-cancel window and no-show fee into the use, and a publishable key books a prepay service paid by a credit without checkout", async () => {
    const pkg = await plant(salon, anna, [express.uuid]);
    const date = nextMonday();
    const unpaid = await book(at("08:00", date), { service_uuid: express.uuid }, widget);
    expect(unpaid.status, JSON.stringify(unpaid.body)).toBe(402);
    const res = await book(
      at("08:00", date),
      { service_uuid: express.uuid, customer_package_uuid: pkg.id },
      widget,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.ordered_services[0]).toMatchObject({ price: 0, discount: 1250 });
    expect(await counts(pkg.creditId)).toMatchObject({ reserved: 1 });
    expect(await usesOf(pkg.id)).toMatchObject([
      { state: "reserved", late_cancel_minutes: 1440, no_show_uses: 1 },
    ]);
  });

  it("a widget's hold of a prepay service, booked with a credit: 201 without checkout", async () => {
    const pkg = await plant(salon, anna, [express.uuid]);
    const start = at("10:00", nextMonday());
    const held = await widget("/reservations", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [{ datetime_start: start, services: [{ service_uuid: express.uuid }] }],
      },
    });
    expect(held.status, JSON.stringify(held.body)).toBe(201);
    const unpaid = await book(
      start,
      { service_uuid: express.uuid, reservation_uuid: held.body.uuid },
      widget,
    );
    expect(unpaid.status, JSON.stringify(unpaid.body)).toBe(402);
    const res = await book(
      start,
      {
        service_uuid: express.uuid,
        reservation_uuid: held.body.uuid,
        customer_package_uuid: pkg.id,
      },
      widget,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.order.total).toBe(0);
    expect(await counts(pkg.creditId)).toMatchObject({ reserved: 1 });
  });

  it("a group service's seats take a credit each", async () => {
    const group = await salon.ws.api("/services", {
      method: "POST",
      body: { name: "Yoga", duration: 60, price: 1500, capacity: 4 },
    });
    expect(group.status, JSON.stringify(group.body)).toBe(201);
    const pkg = await plant(salon, anna, [group.body.uuid], { total: 3 });
    const date = nextMonday();
    const two = await book(at("08:00", date), {
      service_uuid: group.body.uuid,
      quantity: 2,
      customer_package_uuid: pkg.id,
    });
    expect(two.status, JSON.stringify(two.body)).toBe(201);
    expect(two.body.ordered_services[0]).toMatchObject({ quantity: 2, price: 0, discount: 1500 });
    expect(two.body.order.total).toBe(0);
    expect(await counts(pkg.creditId)).toEqual({ total: 3, used: 0, reserved: 2 });
    const more = await book(at("10:00", date), {
      service_uuid: group.body.uuid,
      quantity: 2,
      customer_package_uuid: pkg.id,
    });
    expect(more.status, JSON.stringify(more.body)).toBe(409);
    expect(more.body.code).toBe("package_unavailable");
    expect(await counts(pkg.creditId)).toMatchObject({ reserved: 2 });
  });

  describe("422 on customer_package_uuid, nothing written", () => {
    const refused = async (
      extra: Record<string, unknown>,
      phone = ANNA,
      path = "customer_package_uuid",
    ) => {
      const before = await rowCount("bookings");
      const res = await book(at("09:00", nextMonday()), extra, salon.ws.api, phone);
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.code).toBe("validation_failed");
      expect(Object.keys(res.body.errors)).toEqual([path]);
      expect(await rowCount("bookings")).toBe(before);
      return res;
    };

    it("an unknown package", async () => {
      await refused({ customer_package_uuid: crypto.randomUUID() });
    });

    it("another customer's package", async () => {
      const bens = await plant(salon, ben, [salon.cut.uuid]);
      await refused({ customer_package_uuid: bens.id });
      expect(await counts(bens.creditId)).toMatchObject({ reserved: 0 });
    });

    it("a new customer's booking (a new customer owns no package)", async () => {
      const pkg = await plant(salon, anna, [salon.cut.uuid]);
      await refused({ customer_package_uuid: pkg.id }, "+49 151 11112222");
    });

    it("another workspace's package", async () => {
      const theirs = await other.ws.api("/bookings", {
        method: "POST",
        body: {
          location_uuid: other.location.uuid,
          service_uuid: other.cut.uuid,
          reserved_on: at("08:00", nextMonday()),
          ...customer(ANNA),
        },
      });
      expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
      const pkg = await plant(other, theirs.body.customer_uuid, [salon.cut.uuid]);
      await refused({ customer_package_uuid: pkg.id });
    });

    it("a service no credit names", async () => {
      const pkg = await plant(salon, anna, [salon.colour.uuid]);
      await refused({ customer_package_uuid: pkg.id });
    });

    it("a malformed uuid", async () => {
      await refused({ customer_package_uuid: "nope" });
    });
  });

  describe("409 package_unavailable, nothing written", () => {
    const unavailable = async (pkg: Planted, start = at("09:00", nextMonday())) => {
      const before = await rowCount("bookings");
      const res = await book(start, { customer_package_uuid: pkg.id });
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.body.code).toBe("package_unavailable");
      expect(await rowCount("bookings")).toBe(before);
      expect((await counts(pkg.creditId)).reserved).toBe(0);
      return res.body.message as string;
    };

    it("void", async () => {
      const pkg = await plant(salon, anna, [salon.cut.uuid], { status: "void" });
      expect(await unavailable(pkg)).toMatch(/void/);
    });

    it("past due", async () => {
      const pkg = await plant(salon, anna, [salon.cut.uuid], { pastDue: true });
      expect(await unavailable(pkg)).toMatch(/past due/);
    });

    it("used up", async () => {
      const pkg = await plant(salon, anna, [salon.cut.uuid], { total: 2, used: 2 });
      expect(await unavailable(pkg)).toMatch(/used up/);
    });

    it("expired", async () => {
      const pkg = await plant(salon, anna, [salon.cut.uuid], { expiresAt: Date.now() - 1000 });
      expect(await unavailable(pkg)).toMatch(/expired/);
    });

    it("its credit expires before the booking starts", async () => {
      const date = nextMonday();
      const pkg = await plant(salon, anna, [salon.cut.uuid], {
        expiresAt: Date.parse(at("08:00", date)),
      });
      expect(await unavailable(pkg, at("09:00", date))).toMatch(/expire before/);
    });
  });
});

describe("POST /bookings/cart with customer_package_uuid on its services", () => {
  const cart = (date: string, pkg: string | undefined, api: Client = salon.ws.api) =>
    api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [
          {
            datetime_start: at("08:00", date),
            services: [{ service_uuid: salon.cut.uuid, customer_package_uuid: pkg }],
          },
          {
            datetime_start: at("12:00", date),
            services: [
              { service_uuid: salon.colour.uuid },
              { service_uuid: salon.cut.uuid, customer_package_uuid: pkg },
            ],
          },
        ],
        ...customer(ANNA),
      },
    });

  it("two services naming one package take two credits; the others are paid as usual", async () => {
    const pkg = await plant(salon, anna, [salon.cut.uuid], { total: 2 });
    const res = await cart(nextMonday(), pkg.id);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [first, second] = res.body.bookings;
    expect(first.ordered_services[0]).toMatchObject({ price: 0, discount: 3500 });
    expect(second.ordered_services[0]).toMatchObject({ price: 7900, discount: 1000 });
    expect(second.ordered_services[1]).toMatchObject({ price: 0, discount: 3500 });
    expect(second.order.total).toBe(7900);
    const plain = await cart(nextMonday(), undefined);
    expect(plain.status, JSON.stringify(plain.body)).toBe(201);
    const [withCredit, without] = [d1RoundTrips(res.headers), d1RoundTrips(plain.headers)];
    console.log(`D1 round trips (cart): with credits ${withCredit}, without ${without}`);
    expect(withCredit).toBe(without);
    expect(await counts(pkg.creditId)).toEqual({ total: 2, used: 0, reserved: 2 });
    expect((await usesOf(pkg.id)).map((u) => u.booking_service_id).sort()).toEqual(
      [first.ordered_services[0].uuid, second.ordered_services[1].uuid].sort(),
    );
  });

  it("one credit for two services: 409 package_unavailable, nothing written", async () => {
    const pkg = await plant(salon, anna, [salon.cut.uuid], { total: 1 });
    const before = await rowCount("bookings");
    const res = await cart(nextMonday(), pkg.id);
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.code).toBe("package_unavailable");
    expect(await rowCount("bookings")).toBe(before);
    expect(await counts(pkg.creditId)).toMatchObject({ reserved: 0 });
  });

  it("a service no credit names: 422 on that entry's field", async () => {
    const pkg = await plant(salon, anna, [salon.colour.uuid], { total: 2 });
    const res = await cart(nextMonday(), pkg.id);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual([
      "items.0.services.0.customer_package_uuid",
      "items.1.services.1.customer_package_uuid",
    ]);
  });
});

describe("POST /bookings/series with customer_package_uuid", () => {
  const series = (date: string, pkg: string | undefined, count: number) =>
    salon.ws.api("/bookings/series", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: at("14:00", date),
        recurrence: { rule: `FREQ=WEEKLY;COUNT=${count}` },
        customer_package_uuid: pkg,
        ...customer(ANNA),
      },
    });

  it("N occurrences with N−1 credits: 409 package_unavailable, nothing written", async () => {
    const pkg = await plant(salon, anna, [salon.cut.uuid], { total: 2 });
    const [bookings, seriesRows] = [await rowCount("bookings"), await rowCount("series")];
    const res = await series(nextMonday(), pkg.id, 3);
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.code).toBe("package_unavailable");
    expect(await rowCount("bookings")).toBe(bookings);
    expect(await rowCount("series")).toBe(seriesRows);
    expect(await counts(pkg.creditId)).toMatchObject({ reserved: 0 });
  });

  it("every occurrence takes a credit", async () => {
    const pkg = await plant(salon, anna, [salon.cut.uuid], { total: 3 });
    const res = await series(nextMonday(), pkg.id, 3);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.bookings).toHaveLength(3);
    for (const b of res.body.bookings) {
      expect(b.ordered_services[0]).toMatchObject({ price: 0, discount: 3500 });
    }
    expect(await counts(pkg.creditId)).toEqual({ total: 3, used: 0, reserved: 3 });
    expect(new Set((await usesOf(pkg.id)).map((u) => u.booking_id)).size).toBe(3);
    const plain = await series(nextMonday(), undefined, 3);
    expect(plain.status, JSON.stringify(plain.body)).toBe(201);
    const [withCredit, without] = [d1RoundTrips(res.headers), d1RoundTrips(plain.headers)];
    console.log(`D1 round trips (series): with credits ${withCredit}, without ${without}`);
    expect(withCredit).toBe(without);
  });

  it("another customer's package: 422 on customer_package_uuid", async () => {
    const bens = await plant(salon, ben, [salon.cut.uuid], { total: 3 });
    const res = await series(nextMonday(), bens.id, 2);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(["customer_package_uuid"]);
  });
});

describe("the last credit under concurrency", () => {
  it("5 bookings at different times race for the last credit: one 201, four 409 package_unavailable", async () => {
    const pkg = await plant(salon, anna, [salon.cut.uuid], { total: 4, used: 3 });
    const date = nextMonday();
    const before = await rowCount("bookings");
    // Every request reads the package (one credit left) before any writes.
    failpoints.meet("booking.create.read", 5, 5_000);
    const refusedInWrite = failpoints.hits("packages.credit.refused_in_write");
    const answers = await Promise.all(
      ["08:00", "09:00", "10:00", "11:00", "12:00"].map((t) =>
        book(at(t, date), { customer_package_uuid: pkg.id }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses, JSON.stringify(answers.map((a) => a.body))).toEqual([201, 409, 409, 409, 409]);
    for (const a of answers.filter((x) => x.status === 409)) {
      expect(a.body.code).toBe("package_unavailable");
    }
    // Every loser had read the credit as free: its write's guard refused it.
    expect(failpoints.hits("packages.credit.refused_in_write") - refusedInWrite).toBe(4);
    const c = await counts(pkg.creditId);
    expect(c.used + c.reserved).toBe(c.total);
    expect(c.reserved).toBe(1);
    expect(await rowCount("bookings")).toBe(before + 1);
    const winner = answers.find((a) => a.status === 201)?.body;
    expect((await usesOf(pkg.id)).map((u) => u.booking_id)).toEqual([winner.uuid]);
    // The losers' times were released: each is bookable again.
    const again = await book(at(winner.start_time === at("08:00", date) ? "09:00" : "08:00", date));
    expect(again.status, JSON.stringify(again.body)).toBe(201);
  });
});

describe("a failure injected in the write", () => {
  it("a batch that fails inside D1 holds no credit and frees the time", async () => {
    const pkg = await plant(salon, anna, [salon.cut.uuid]);
    const start = at("08:00", nextMonday());
    const before = await rowCount("bookings");
    const failed = await withFailingInserts("package_credit_uses", () =>
      book(start, { customer_package_uuid: pkg.id, staffer_uuid: salon.staffers[0]?.uuid }),
    );
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(await counts(pkg.creditId)).toMatchObject({ reserved: 0, used: 0 });
    expect(await rowCount("bookings")).toBe(before);
    const res = await book(start, {
      customer_package_uuid: pkg.id,
      staffer_uuid: salon.staffers[0]?.uuid,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await counts(pkg.creditId)).toMatchObject({ reserved: 1 });
  });

  it("a batch lost before it reached D1 holds no credit", async () => {
    const pkg = await plant(salon, anna, [salon.cut.uuid]);
    const start = at("10:00", nextMonday());
    failpoints.arm("d1.batch.lost", calendarBatch);
    const lost = await book(start, { customer_package_uuid: pkg.id });
    expect(lost.status).toBeGreaterThanOrEqual(500);
    expect(await counts(pkg.creditId)).toMatchObject({ reserved: 0, used: 0 });
    expect(await usesOf(pkg.id)).toEqual([]);
  });

  it("a batch that committed unheard reserves exactly one credit", async () => {
    const pkg = await plant(salon, anna, [salon.cut.uuid], { total: 2 });
    failpoints.arm("d1.batch.committed", calendarBatch);
    const res = await book(at("12:00", nextMonday()), { customer_package_uuid: pkg.id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await counts(pkg.creditId)).toMatchObject({ reserved: 1, used: 0 });
    expect(await usesOf(pkg.id)).toHaveLength(1);
  });
});
