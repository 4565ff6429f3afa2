import { beforeAll, describe, expect, it } from "vitest";
import { rowCount } from "../../helpers/db";
import { type Client, d1RoundTrips, PUBLIC, send } from "../../helpers/http";
import { createPublishableKey } from "../../helpers/keys";
import { createMessagingSalon } from "../../helpers/messages";
import { at, createSalon, customer, type Salon } from "../../helpers/salon";
import {
  cancel,
  fullDay,
  joined,
  offered,
  offerMessages,
  offerTokenIn,
  WAIT_DAY,
} from "../../helpers/waitlist";
import { everyShard } from "../../helpers/every-shard";

/**
 * A service's payment policy (what a customer booking online pays), the
 * terms a reservation copies from its services, and the 402 a customer's
 * booking gets when those services take money online.
 */

let salon: Salon;
let other: Salon;
/** A fresh publishable key for each use that holds time: a visitor may hold only 3 at once. */
const widget = async (): Promise<Client> => (await createPublishableKey(salon.ws)).api;

const DEPOSIT = {
  mode: "deposit",
  deposit: { percent: 15 },
  late_cancel: { window_minutes: 1440, fee: { percent: 50 } },
  no_show_fee: { amount: 2000 },
};
const ON_FILE = {
  mode: "card_on_file",
  late_cancel: { window_minutes: 120, fee: { amount: 1500 } },
  no_show_fee: { percent: 100 },
};
const PREPAY = { mode: "prepay" };

/** Services by policy, made once: their prices make every rounding visible. */
const svc: Record<"deposit" | "onFile" | "prepay" | "group" | "free", { uuid: string }> = {
  deposit: { uuid: "" },
  onFile: { uuid: "" },
  prepay: { uuid: "" },
  group: { uuid: "" },
  free: { uuid: "" },
};

const createService = (body: Record<string, unknown>, s: Salon = salon) =>
  s.ws.api("/services", {
    method: "POST",
    body: { name: "Service", duration: 30, price: 3333, ...body },
  });

const patchService = (id: string, body: Record<string, unknown>) =>
  salon.ws.api(`/services/${id}`, { method: "PATCH", body });

const storedPolicy = async (id: string) =>
  (
    await everyShard
      .prepare("select payment_policy from services where id = ?")
      .bind(id)
      .first<{ payment_policy: string | null }>()
  )?.payment_policy;

let week = 0;
/** A Monday of its own per call (from 2030-06-03), so tests never share calendar time. */
const nextMonday = () => {
  week += 1;
  return new Date(Date.UTC(2030, 5, 3) + week * 7 * 86_400_000).toISOString().slice(0, 10);
};

const item = (start: string, ...services: (string | { uuid: string; quantity: number })[]) => ({
  datetime_start: start,
  services: services.map((s) =>
    typeof s === "string" ? { service_uuid: s } : { service_uuid: s.uuid, quantity: s.quantity },
  ),
});

const reserve = (items: ReturnType<typeof item>[], api: Client = salon.ws.api) =>
  api("/reservations", {
    method: "POST",
    body: { location_uuid: salon.location.uuid, items },
  });

const book = (serviceId: string, start: string, api: Client, extra: object = {}) =>
  api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: serviceId,
      reserved_on: start,
      ...customer(),
      ...extra,
    },
  });

const cart = (items: ReturnType<typeof item>[], api: Client, extra: object = {}) =>
  api("/bookings/cart", {
    method: "POST",
    body: { location_uuid: salon.location.uuid, items, ...customer(), ...extra },
  });

beforeAll(async () => {
  salon = await createSalon(2);
  other = await createSalon(1);
  for (const [name, body] of [
    ["deposit", { name: "Balayage", price: 8900, price_discount: 7999, payment_policy: DEPOSIT }],
    ["onFile", { name: "Cut", price: 3333, payment_policy: ON_FILE }],
    ["prepay", { name: "Express", price: 1250, payment_policy: PREPAY }],
    [
      "group",
      {
        name: "Workshop",
        price: 2000,
        capacity: 4,
        payment_policy: { mode: "deposit", deposit: { amount: 500 }, no_show_fee: { amount: 700 } },
      },
    ],
    ["free", { name: "Consultation", price: 0 }],
  ] as const) {
    const res = await createService(body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    svc[name] = res.body;
  }
});

describe("payment_policy on services", () => {
  it("is stored as given, shown on create, GET and list, and { mode: none } by default (stored as null)", async () => {
    const created = await createService({ name: "Colour", payment_policy: DEPOSIT });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.payment_policy).toEqual(DEPOSIT);
    expect((await salon.ws.api(`/services/${created.body.uuid}`)).body.payment_policy).toEqual(
      DEPOSIT,
    );
    expect(JSON.parse((await storedPolicy(created.body.uuid)) ?? "null")).toEqual(DEPOSIT);

    const plain = await createService({ name: "Wash" });
    expect(plain.body.payment_policy).toEqual({ mode: "none" });
    expect(await storedPolicy(plain.body.uuid)).toBeNull();
    const none = await createService({ name: "Dry", payment_policy: { mode: "none" } });
    expect(none.body.payment_policy).toEqual({ mode: "none" });
    expect(await storedPolicy(none.body.uuid)).toBeNull();

    const list = await salon.ws.api("/services?per_page=100");
    const listed = new Map(
      (list.body.data as { uuid: string; payment_policy: unknown }[]).map((s) => [
        s.uuid,
        s.payment_policy,
      ]),
    );
    expect(listed.get(created.body.uuid)).toEqual(DEPOSIT);
    expect(listed.get(plain.body.uuid)).toEqual({ mode: "none" });
    // The widget shows it too: its pay step names what is due.
    const shown = await (await widget())(`/services/${svc.prepay.uuid}`);
    expect(shown.status).toBe(200);
    expect(shown.body.payment_policy).toEqual(PREPAY);
  });

  it("PATCH replaces the policy as a whole, keeps it when only capacity changes, and { mode: none } clears it", async () => {
    const s = (await createService({ name: "Perm", payment_policy: DEPOSIT })).body;
    const changed = await patchService(s.uuid, { payment_policy: ON_FILE });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.payment_policy).toEqual(ON_FILE);
    const replaced = await patchService(s.uuid, { payment_policy: { mode: "card_on_file" } });
    // No merge: the fees of the policy before are gone.
    expect(replaced.body.payment_policy).toEqual({ mode: "card_on_file" });
    const capacity = await patchService(s.uuid, { capacity: 2 });
    expect(capacity.body).toMatchObject({ capacity: 2, payment_policy: { mode: "card_on_file" } });
    const both = await patchService(s.uuid, { capacity: 1, payment_policy: PREPAY });
    expect(both.body).toMatchObject({ capacity: 1, payment_policy: PREPAY });
    const cleared = await patchService(s.uuid, { payment_policy: { mode: "none" } });
    expect(cleared.body.payment_policy).toEqual({ mode: "none" });
    expect(await storedPolicy(s.uuid)).toBeNull();

    const empty = await patchService(s.uuid, {});
    expect(empty.status).toBe(422);
    expect(empty.body.code).toBe("validation_failed");
    expect(Object.keys(empty.body.errors)).toEqual(["body"]);

    const foreign = await other.ws.api(`/services/${s.uuid}`, {
      method: "PATCH",
      body: { payment_policy: PREPAY },
    });
    expect(foreign.status).toBe(404);
    expect(await storedPolicy(s.uuid)).toBeNull();
  });

  it.each([
    [
      "both percent and amount",
      { mode: "deposit", deposit: { percent: 10, amount: 500 } },
      "payment_policy.deposit",
    ],
    ["neither percent nor amount", { mode: "deposit", deposit: {} }, "payment_policy.deposit"],
    ["percent 0", { mode: "deposit", deposit: { percent: 0 } }, "payment_policy.deposit.percent"],
    [
      "percent 101",
      { mode: "prepay", no_show_fee: { percent: 101 } },
      "payment_policy.no_show_fee.percent",
    ],
    [
      "percent 12.5",
      { mode: "deposit", deposit: { percent: 12.5 } },
      "payment_policy.deposit.percent",
    ],
    [
      "amount 0",
      { mode: "card_on_file", no_show_fee: { amount: 0 } },
      "payment_policy.no_show_fee.amount",
    ],
    [
      "window 10081",
      { mode: "card_on_file", late_cancel: { window_minutes: 10081, fee: { amount: 100 } } },
      "payment_policy.late_cancel.window_minutes",
    ],
    [
      "a late cancel without fee",
      { mode: "card_on_file", late_cancel: { window_minutes: 60 } },
      "payment_policy.late_cancel.fee",
    ],
    [
      "deposit without mode deposit",
      { mode: "prepay", deposit: { percent: 10 } },
      "payment_policy.deposit",
    ],
    ["mode deposit without deposit", { mode: "deposit" }, "payment_policy.deposit"],
    ["fees with mode none", { mode: "none", no_show_fee: { amount: 500 } }, "payment_policy.mode"],
    [
      "a late cancel with mode none",
      { mode: "none", late_cancel: { window_minutes: 60, fee: { amount: 500 } } },
      "payment_policy.mode",
    ],
    ["an unknown key", { mode: "prepay", tip: { percent: 10 } }, "payment_policy.tip"],
    [
      "an unknown key in a money object",
      { mode: "deposit", deposit: { percent: 10, currency: "EUR" } },
      "payment_policy.deposit.currency",
    ],
    ["an unknown mode", { mode: "pay_later" }, "payment_policy.mode"],
    ["no mode", { no_show_fee: { amount: 100 } }, "payment_policy.mode"],
    ["not an object", "deposit", "payment_policy"],
  ])("%s is 422 on its field, and nothing is written", async (_, policy, field) => {
    const before = await rowCount("services", salon.ws.id);
    const created = await createService({ name: "Bad", payment_policy: policy });
    expect(created.status).toBe(422);
    expect(created.body).toMatchObject({ code: "validation_failed", message: expect.any(String) });
    expect(Object.keys(created.body.errors)).toEqual([field]);
    expect(await rowCount("services", salon.ws.id)).toBe(before);

    const patched = await patchService(svc.deposit.uuid, { payment_policy: policy });
    expect(patched.status).toBe(422);
    expect(Object.keys(patched.body.errors)).toEqual([field]);
    expect(JSON.parse((await storedPolicy(svc.deposit.uuid)) ?? "null")).toEqual(DEPOSIT);
  });
});

describe("a reservation's payment terms", () => {
  it.each([
    [
      "deposit: 15% of the discounted price, half of it as the late fee",
      "deposit",
      // 15% of 7999 = 1199.85; 50% = 3999.5.
      {
        mode: "deposit",
        amount_due_now: 1200,
        late_cancel: { window_minutes: 1440, fee: 4000 },
        no_show_fee: 2000,
      },
    ],
    [
      "card on file: nothing due now, the fees kept",
      "onFile",
      {
        mode: "card_on_file",
        amount_due_now: 0,
        late_cancel: { window_minutes: 120, fee: 1500 },
        no_show_fee: 3333,
      },
    ],
    [
      "prepay: the whole price",
      "prepay",
      { mode: "prepay", amount_due_now: 1250, late_cancel: null, no_show_fee: null },
    ],
  ] as const)("%s", async (_, name, terms) => {
    const start = at("09:00", nextMonday());
    const res = await reserve([item(start, svc[name].uuid)]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const expected = { ...terms, currency: "EUR" };
    expect(res.body.payment).toEqual(expected);
    expect(res.body.checkout).toBeNull();
    const stored = await everyShard
      .prepare("select payment from reservations where id = ?")
      .bind(res.body.uuid)
      .first<{ payment: string }>();
    expect(JSON.parse(stored?.payment ?? "null")).toEqual(expected);
    const got = await salon.ws.api(`/reservations/${res.body.uuid}`);
    expect(got.body).toMatchObject({ payment: expected, checkout: null });
  });

  it("is null for services that ask nothing, and the reservation shows no checkout", async () => {
    const res = await reserve([item(at("09:00", nextMonday()), salon.cut.uuid, svc.free.uuid)]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ payment: null, checkout: null });
    const stored = await everyShard
      .prepare("select payment from reservations where id = ?")
      .bind(res.body.uuid)
      .first<{ payment: string | null }>();
    expect(stored?.payment).toBeNull();
    const list = await salon.ws.api(`/reservations?location_uuid=${salon.location.uuid}`);
    const listed = (list.body.data as { uuid: string }[]).find((r) => r.uuid === res.body.uuid);
    expect(listed).toMatchObject({ payment: null, checkout: null });
  });

  it("a cart of several services: amounts add up per seat, the strictest mode wins, the longest window", async () => {
    const date = nextMonday();
    const res = await reserve([
      item(at("08:00", date), svc.onFile.uuid, svc.deposit.uuid),
      item(at("13:00", date), { uuid: svc.group.uuid, quantity: 3 }, salon.cut.uuid),
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.payment).toEqual({
      mode: "deposit",
      // The balayage's 1200 and the workshop's 500 for each of 3 seats.
      amount_due_now: 1200 + 3 * 500,
      currency: "EUR",
      late_cancel: { window_minutes: 1440, fee: 1500 + 4000 },
      no_show_fee: 3333 + 2000 + 3 * 700,
    });

    const prepay = await reserve([
      item(at("14:00", date), svc.prepay.uuid, svc.onFile.uuid, svc.deposit.uuid),
    ]);
    expect(prepay.status, JSON.stringify(prepay.body)).toBe(201);
    expect(prepay.body.payment).toMatchObject({ mode: "prepay", amount_due_now: 1250 + 1200 });
  });

  it("keeps the terms it was made with when the policy changes later", async () => {
    const s = (await createService({ name: "Trim", price: 4000, payment_policy: PREPAY })).body;
    const res = await reserve([item(at("10:00", nextMonday()), s.uuid)]);
    expect(res.body.payment).toMatchObject({ mode: "prepay", amount_due_now: 4000 });
    await patchService(s.uuid, { payment_policy: { mode: "none" } });
    const got = await salon.ws.api(`/reservations/${res.body.uuid}`);
    expect(got.body.payment).toMatchObject({ mode: "prepay", amount_due_now: 4000 });
    const again = await reserve([item(at("12:00", nextMonday()), s.uuid)]);
    expect(again.body.payment).toBeNull();
  });

  it("shows its checkout, and still answers once used or expired when it has one (404 without)", async () => {
    const date = nextMonday();
    const paid = (await reserve([item(at("09:00", date), svc.prepay.uuid)])).body;
    const plain = (await reserve([item(at("11:00", date), svc.prepay.uuid)])).body;
    const now = Date.now();
    const checkout = (status: string, bookingId: string | null) =>
      everyShard
        .prepare(
          `insert into payment_checkouts (reservation_id, workspace_id, status, terms, customer, success_url, cancel_url, expires_at, booking_id, created_at, updated_at)
         values (?, ?, ?, ?, '{}', 'https://salon.example/ok', 'https://salon.example/back', ?, ?, ?, ?)
         on conflict (reservation_id) do update set status = excluded.status, booking_id = excluded.booking_id`,
        )
        .bind(
          paid.uuid,
          salon.ws.id,
          status,
          JSON.stringify(paid.payment),
          now + 1_800_000,
          bookingId,
          now,
          now,
        )
        .run();

    await checkout("creating", null);
    expect((await salon.ws.api(`/reservations/${paid.uuid}`)).body.checkout).toEqual({
      status: "open",
      booking_uuid: null,
      manage_url: null,
      confirmation_sent_to: [],
    });
    await checkout("open", null);
    const open = await (await widget())(`/reservations/${paid.uuid}`);
    expect(open.status).toBe(200);
    expect(open.body.checkout).toEqual({
      status: "open",
      booking_uuid: null,
      manage_url: null,
      confirmation_sent_to: [],
    });
    const list = await salon.ws.api(`/reservations?location_uuid=${salon.location.uuid}`);
    const byId = new Map((list.body.data as { uuid: string }[]).map((r) => [r.uuid, r]));
    expect(byId.get(paid.uuid)).toMatchObject({ checkout: { status: "open", booking_uuid: null } });
    expect(byId.get(plain.uuid)).toMatchObject({ checkout: null });

    // Used by the booking it became, and past its expiry: still shown, with the booking.
    const bookingId = crypto.randomUUID();
    await checkout("complete", bookingId);
    await everyShard
      .prepare("update reservations set released_at = ?, expires_at = ? where id in (?, ?)")
      .bind(now, now - 1_000, paid.uuid, plain.uuid)
      .run();
    const used = await salon.ws.api(`/reservations/${paid.uuid}`);
    expect(used.status, JSON.stringify(used.body)).toBe(200);
    expect(d1RoundTrips(used.headers)).toBeLessThanOrEqual(1);
    expect(used.body).toMatchObject({
      uuid: paid.uuid,
      payment: paid.payment,
      checkout: { status: "complete", booking_uuid: bookingId },
    });
    await checkout("expired", null);
    expect((await salon.ws.api(`/reservations/${paid.uuid}`)).body.checkout).toEqual({
      status: "expired",
      booking_uuid: null,
      manage_url: null,
      confirmation_sent_to: [],
    });
    expect((await salon.ws.api(`/reservations/${plain.uuid}`)).status).toBe(404);
    // Neither is live: the list shows neither.
    const after = await salon.ws.api(`/reservations?location_uuid=${salon.location.uuid}`);
    const ids = (after.body.data as { uuid: string }[]).map((r) => r.uuid);
    expect(ids).not.toContain(paid.uuid);
    // Another workspace's checkout row is not this reservation's, nor is its reservation found.
    expect((await other.ws.api(`/reservations/${paid.uuid}`)).status).toBe(404);
  });
});

describe("402 payment_required for a customer's booking of services that take money online", () => {
  const bookings = () => rowCount("bookings", salon.ws.id);
  const entries = () => rowCount("calendar_entries", salon.ws.id);

  it.each(["deposit", "onFile", "prepay"] as const)(
    "POST /bookings of a %s service with a publishable key: 402, nothing written; a secret key books it",
    async (name) => {
      const start = at("09:00", nextMonday());
      const [before, held] = [await bookings(), await entries()];
      const refused = await book(svc[name].uuid, start, await widget());
      expect(refused.status, JSON.stringify(refused.body)).toBe(402);
      expect(refused.body).toEqual({ code: "payment_required", message: expect.any(String) });
      // Refused from the booking's own read batch (the key check beside it), before any claim.
      expect(d1RoundTrips(refused.headers)).toBe(1);
      expect(refused.headers.get("server-timing")).toContain('calendar-total;desc="0 calls"');
      expect(await bookings()).toBe(before);
      expect(await entries()).toBe(held);

      const staff = await book(svc[name].uuid, start, salon.ws.api);
      expect(staff.status, JSON.stringify(staff.body)).toBe(201);
      expect(await bookings()).toBe(before + 1);
    },
  );

  it("a group service's seats with a publishable key: 402", async () => {
    const res = await book(svc.group.uuid, at("09:00", nextMonday()), await widget(), {
      quantity: 2,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(402);
  });

  it("services that ask nothing are booked with a publishable key as before", async () => {
    const date = nextMonday();
    const pk = await widget();
    expect((await book(salon.cut.uuid, at("09:00", date), pk)).status).toBe(201);
    const res = await cart([item(at("11:00", date), salon.cut.uuid, svc.free.uuid)], pk);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it("POST /bookings/cart with one service that asks anything among others: 402, nothing written; a secret key books it", async () => {
    const date = nextMonday();
    const items = [
      item(at("08:00", date), salon.cut.uuid),
      item(at("12:00", date), svc.free.uuid, svc.onFile.uuid),
    ];
    const [before, held] = [await bookings(), await entries()];
    const refused = await cart(items, await widget());
    expect(refused.status, JSON.stringify(refused.body)).toBe(402);
    expect(refused.body.code).toBe("payment_required");
    expect(await bookings()).toBe(before);
    expect(await entries()).toBe(held);
    const staff = await cart(items, salon.ws.api);
    expect(staff.status, JSON.stringify(staff.body)).toBe(201);
    expect(await bookings()).toBe(before + 2);
  });

  it("a 422 body is still 422: what the request is wrong about comes first", async () => {
    const res = await (
      await widget()
    )("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: svc.prepay.uuid,
        reserved_on: at("09:00", nextMonday()),
        customer_first_name: "Anna",
        customer_phone: "not a phone",
      },
    });
    expect(res.status).toBe(422);
  });

  it("a reservation whose payment is not null: 402 for a publishable key (still held), booked by a secret key", async () => {
    const date = nextMonday();
    const start = at("09:00", date);
    const pk = await widget();
    const held = await reserve([item(start, svc.deposit.uuid)], pk);
    expect(held.status, JSON.stringify(held.body)).toBe(201);
    expect(held.body.payment).not.toBeNull();
    const before = await bookings();

    const refused = await book(svc.deposit.uuid, start, pk, { reservation_uuid: held.body.uuid });
    expect(refused.status, JSON.stringify(refused.body)).toBe(402);
    expect(refused.body.code).toBe("payment_required");
    const asCart = await cart([item(start, svc.deposit.uuid)], pk, {
      reservation_uuid: held.body.uuid,
    });
    expect(asCart.status).toBe(402);
    expect(await bookings()).toBe(before);
    expect((await salon.ws.api(`/reservations/${held.body.uuid}`)).status).toBe(200);

    const staff = await book(svc.deposit.uuid, start, salon.ws.api, {
      reservation_uuid: held.body.uuid,
    });
    expect(staff.status, JSON.stringify(staff.body)).toBe(201);
    expect(await bookings()).toBe(before + 1);
  });

  it("a reservation decides by the terms it was made with: made before a policy, it books without paying", async () => {
    const s = (await createService({ name: "Fringe", price: 1500 })).body;
    const start = at("10:00", nextMonday());
    const pk = await widget();
    const held = await reserve([item(start, s.uuid)], pk);
    expect(held.body.payment).toBeNull();
    await patchService(s.uuid, { payment_policy: PREPAY });
    const booked = await book(s.uuid, start, pk, { reservation_uuid: held.body.uuid });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    // Without a reservation the policy in force now decides.
    expect((await book(s.uuid, at("14:00", nextMonday()), pk)).status).toBe(402);
  });
});

describe("a waitlist offer of services that take money online", () => {
  it("holds the time with the terms, and its link's booking is 402 (the offer stays open); a secret key books it", async () => {
    const { salon: shop, pk } = await createMessagingSalon(1);
    const patched = await shop.ws.api(`/services/${shop.cut.uuid}`, {
      method: "PATCH",
      body: { payment_policy: PREPAY },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const booking = await fullDay(shop, WAIT_DAY);
    const id = await joined(shop, pk);
    await cancel(shop, booking);
    const entry = await offered(shop, id);
    const held = await shop.ws.api(`/reservations/${entry.offer.reservation_uuid}`);
    expect(held.body.payment).toMatchObject({ mode: "prepay", amount_due_now: shop.cut.price });

    const [message] = await offerMessages(id);
    const token = offerTokenIn(message?.body ?? "");
    const before = await rowCount("bookings", shop.ws.id);
    const refused = await send(`${PUBLIC}/waitlist-offers/${token}/book`, { method: "POST" });
    expect(refused.status, JSON.stringify(refused.body)).toBe(402);
    expect(refused.body.code).toBe("payment_required");
    expect(await rowCount("bookings", shop.ws.id)).toBe(before);
    expect((await shop.ws.api(`/waitlist/${id}`)).body.status).toBe("offered");

    const staff = await shop.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: shop.location.uuid,
        service_uuid: shop.cut.uuid,
        reserved_on: entry.offer.start,
        reservation_uuid: entry.offer.reservation_uuid,
        ...customer("+49 151 22222222"),
      },
    });
    expect(staff.status, JSON.stringify(staff.body)).toBe(201);
  });
});
