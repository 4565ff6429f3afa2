import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { calendarFor } from "../../src/calendar/client";
import { expectInSync } from "../helpers/calendar";
import { admin } from "../helpers/http";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

let salon: Salon;
let account: { uuid: string };
beforeAll(async () => {
  salon = await createSalon();
  const res = await admin(`/workspaces/${salon.ws.id}/accounts`, {
    method: "POST",
    body: { location_uuid: salon.location.uuid, name: "Till", type: "cash" },
  });
  account = res.body;
});

let day = 0;
/** Each test books on its own weekday in 2030 so tests never share calendar time. */
async function booking(over: Record<string, unknown> = {}) {
  day += 1;
  const date = new Date(Date.UTC(2030, 3, 1) + day * 7 * 86_400_000).toISOString().slice(0, 10);
  const res = await salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      reserved_on: at("09:00", date),
      staffer_uuid: salon.staffers[0]?.uuid,
      ...customer(),
      ...over,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { ...res.body, date } as {
    uuid: string;
    date: string;
    customer_uuid: string;
    ordered_services: { staffer_uuid: string }[];
  };
}
const put = (path: string, body: unknown) => salon.ws.api(path, { method: "PUT", body });

const balanceOf = async (accountId: string) =>
  (
    await everyShard
      .prepare("select balance from accounts where id = ?")
      .bind(accountId)
      .first<{ balance: number }>()
  )?.balance;

/** Another booking of staffer 0 on a date, in the way of a change. */
async function blocker(date: string, time: string) {
  const res = await salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      reserved_on: at(time, date),
      staffer_uuid: salon.staffers[0]?.uuid,
      ...customer(),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { uuid: string };
}

describe("booking lifecycle", () => {
  it("cancel records the reason, frees the time and is final", async () => {
    const b = await booking();
    const res = await put(`/bookings/${b.uuid}/status/cancel`, {
      cancel_reason: "didnt_come",
      internal_notes: "No show",
      staffer_uuid: salon.staffers[1]?.uuid,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      is_canceled: true,
      cancel_reason: "didnt_come",
      canceled_by: salon.staffers[1]?.uuid,
      policy: { is_cancelable: false },
    });
    await vi.waitFor(async () => {
      const entries = await calendarFor(env, salon.ws.id, salon.staffers[0]?.uuid ?? "").entries();
      expect(entries.some((e) => e.start === Date.parse(at("09:00", b.date)))).toBe(false);
    });
    // The freed slot can be booked again.
    const again = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: at("09:00", b.date),
        staffer_uuid: salon.staffers[0]?.uuid,
        ...customer(),
      },
    });
    expect(again.status).toBe(201);
    expect((await put(`/bookings/${b.uuid}/status/cancel`, {})).status).toBe(409);
    expect(
      (await put(`/bookings/${b.uuid}/reschedule`, { reserved_on: at("11:00", b.date) })).status,
    ).toBe(409);
    expect(
      (await put(`/bookings/${b.uuid}/staffer`, { staffer_uuid: salon.staffers[2]?.uuid })).status,
    ).toBe(409);
  });

  it("rejects an unknown cancel reason", async () => {
    const b = await booking();
    const res = await put(`/bookings/${b.uuid}/status/cancel`, { cancel_reason: "bored" });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(["cancel_reason"]);
  });

  it("complete credits the booking total, or the paid amount, to the account", async () => {
    const b = await booking();
    const before = await balanceOf(account.uuid);
    expect(before).toEqual(expect.any(Number));
    const res = await put(`/bookings/${b.uuid}/status/complete`, { account_uuid: account.uuid });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      is_completed: true,
      order: { amount_paid: 3500, total: 3500 },
    });
    // Exactly the booking's total (the cut's 3500), once.
    expect(await balanceOf(account.uuid)).toBe((before ?? 0) + 3500);
    const c = await booking();
    const partial = await put(`/bookings/${c.uuid}/status/complete`, {
      account_uuid: account.uuid,
      paid_amount: "2000",
    });
    expect(partial.status, JSON.stringify(partial.body)).toBe(200);
    expect(partial.body.order).toMatchObject({ amount_paid: 2000, total: 3500 });
    // The paid amount is credited, not the total.
    expect(await balanceOf(account.uuid)).toBe((before ?? 0) + 3500 + 2000);
    expect(
      (await put(`/bookings/${c.uuid}/status/complete`, { account_uuid: account.uuid })).status,
    ).toBe(409);
    // A refused second completion credits nothing.
    expect(await balanceOf(account.uuid)).toBe((before ?? 0) + 3500 + 2000);
    expect(
      (await put(`/bookings/${c.uuid}/reschedule`, { reserved_on: at("11:00", c.date) })).status,
    ).toBe(409);
  });

  it("complete needs a known account of the booking's location", async () => {
    const b = await booking();
    const missing = await put(`/bookings/${b.uuid}/status/complete`, {});
    expect(missing.status).toBe(422);
    const unknown = await put(`/bookings/${b.uuid}/status/complete`, {
      account_uuid: crypto.randomUUID(),
    });
    expect(unknown.status).toBe(422);
    expect(Object.keys(unknown.body.errors)).toEqual(["account_uuid"]);
  });

  it("status takes only the workspace's statuses", async () => {
    const b = await booking();
    const statuses = await salon.ws.api("/booking-statuses");
    const confirmed = statuses.body.data.find((s: { type: string }) => s.type === "confirmed");
    const res = await put(`/bookings/${b.uuid}/status`, { status_uuid: confirmed.uuid });
    expect(res.body.status).toEqual({ uuid: confirmed.uuid, name: "Confirmed", type: "confirmed" });
    const bad = await put(`/bookings/${b.uuid}/status`, { status_uuid: crypto.randomUUID() });
    expect(bad.status).toBe(422);
  });

  it("reschedule moves the booking when the new slot is free", async () => {
    const b = await booking();
    const res = await put(`/bookings/${b.uuid}/reschedule`, {
      reserved_on: at("12:00", b.date),
      is_send_notification_on_reschedule: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      start_time: at("12:00", b.date),
      end_time: `${b.date}T12:45:00Z`,
    });
    expect(res.body.ordered_services[0].reserved_on).toBe(at("12:00", b.date));
    // The old time goes with the confirm, which follows the answer.
    await vi.waitFor(async () => {
      const entries = await calendarFor(env, salon.ws.id, salon.staffers[0]?.uuid ?? "").entries();
      expect(entries.filter((e) => e.start === Date.parse(at("09:00", b.date)))).toEqual([]);
      expect(entries.filter((e) => e.start === Date.parse(at("12:00", b.date)))).toHaveLength(1);
    });
    await expectInSync(salon.ws.id, [salon.staffers[0]?.uuid ?? ""]);
    // Overlapping its own old time is fine (moving by 15 minutes).
    const nudge = await put(`/bookings/${b.uuid}/reschedule`, { reserved_on: at("12:15", b.date) });
    expect(nudge.status).toBe(200);
    expect(nudge.body.start_time).toBe(at("12:15", b.date));
    await expectInSync(salon.ws.id, [salon.staffers[0]?.uuid ?? ""]);
    // Onto another booking of the same staffer: 409, and nothing moves.
    await blocker(b.date, "15:00");
    const taken = await put(`/bookings/${b.uuid}/reschedule`, { reserved_on: at("14:45", b.date) });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe("slot_unavailable");
    const after = await salon.ws.api(`/bookings/${b.uuid}`);
    expect(after.body.start_time).toBe(at("12:15", b.date));
    await expectInSync(salon.ws.id, [salon.staffers[0]?.uuid ?? ""]);
  });

  it("reschedule refuses a taken slot (409) and a time outside hours (422)", async () => {
    const a = await booking();
    const other = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: at("14:00", a.date),
        staffer_uuid: salon.staffers[0]?.uuid,
        ...customer(),
      },
    });
    expect(other.status).toBe(201);
    const taken = await put(`/bookings/${a.uuid}/reschedule`, { reserved_on: at("14:30", a.date) });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe("slot_unavailable");
    expect(
      (await put(`/bookings/${a.uuid}/reschedule`, { reserved_on: at("19:00", a.date) })).status,
    ).toBe(422);
    expect(
      (await put(`/bookings/${a.uuid}/reschedule`, { reserved_on: "2030-04-08 10:00" })).status,
    ).toBe(422);
  });

  it("change staffer moves the service to a free staffer of the branch", async () => {
    const b = await booking();
    const res = await put(`/bookings/${b.uuid}/staffer`, { staffer_uuid: salon.staffers[2]?.uuid });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.ordered_services[0].staffer_uuid).toBe(salon.staffers[2]?.uuid);
    expect(res.body.order.total).toBe(3500);
    // The old staffer's time goes with the confirm, which follows the answer.
    await vi.waitFor(async () => {
      const oldCal = await calendarFor(env, salon.ws.id, salon.staffers[0]?.uuid ?? "").entries();
      expect(oldCal.some((e) => e.start === Date.parse(at("09:00", b.date)))).toBe(false);
    });
    const newCal = await calendarFor(env, salon.ws.id, salon.staffers[2]?.uuid ?? "").entries();
    expect(newCal.some((e) => e.start === Date.parse(at("09:00", b.date)))).toBe(true);
    expect(
      (await put(`/bookings/${b.uuid}/staffer`, { staffer_uuid: crypto.randomUUID() })).status,
    ).toBe(422);
  });

  it("change staffer refuses a staffer who is busy then", async () => {
    const b = await booking();
    const busy = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: at("09:00", b.date),
        staffer_uuid: salon.staffers[1]?.uuid,
        ...customer(),
      },
    });
    expect(busy.status).toBe(201);
    expect(
      (await put(`/bookings/${b.uuid}/staffer`, { staffer_uuid: salon.staffers[1]?.uuid })).status,
    ).toBe(409);
  });

  it("replace service re-derives price and duration and shifts the end", async () => {
    const b = await booking();
    const res = await put(`/bookings/${b.uuid}/services`, { service_uuid: salon.colour.uuid });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      end_time: `${b.date}T10:30:00Z`,
      duration: { value: 90 },
      order: { subtotal: 7900, total: 7900 },
    });
    expect(res.body.ordered_services[0]).toMatchObject({
      name: "Colouring",
      price: 7900,
      original_price: 8900,
      discount: 1000,
    });
    // The calendar now holds 09:00-10:30 (the colouring has no buffer), in sync with D1.
    const entries = await calendarFor(env, salon.ws.id, salon.staffers[0]?.uuid ?? "").entries();
    expect(entries).toContainEqual(
      expect.objectContaining({
        start: Date.parse(at("09:00", b.date)),
        end: Date.parse(`${b.date}T10:30:00Z`),
      }),
    );
    await expectInSync(salon.ws.id, [salon.staffers[0]?.uuid ?? ""]);
  });

  it("replace service refuses a longer service that runs into the staffer's next booking", async () => {
    const b = await booking();
    // 09:00-09:45 cut (+15 buffer); the colouring would run to 10:30, over a booking at 10:00.
    await blocker(b.date, "10:00");
    const res = await put(`/bookings/${b.uuid}/services`, { service_uuid: salon.colour.uuid });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.code).toBe("slot_unavailable");
    const after = await salon.ws.api(`/bookings/${b.uuid}`);
    expect(after.body).toMatchObject({ end_time: `${b.date}T09:45:00Z`, order: { total: 3500 } });
    expect(after.body.ordered_services[0].name).toBe("Haircut");
    await expectInSync(salon.ws.id, [salon.staffers[0]?.uuid ?? ""]);
  });

  it("replace service on a completed booking is 409 booking_not_replaceable", async () => {
    const b = await booking();
    await put(`/bookings/${b.uuid}/status/complete`, { account_uuid: account.uuid });
    const res = await put(`/bookings/${b.uuid}/services`, { service_uuid: salon.colour.uuid });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("booking_not_replaceable");
  });

  it("public notes are set with POST", async () => {
    const b = await booking();
    const res = await salon.ws.api(`/bookings/${b.uuid}/public_notes`, {
      method: "POST",
      body: { value: "Bring photos" },
    });
    expect(res.status).toBe(200);
    expect(res.body.public_notes).toBe("Bring photos");
  });

  it("every change wrote its event to the outbox", async () => {
    const types = await everyShard.prepare("select distinct type from events order by type").all<{
      type: string;
    }>();
    expect(types.results.map((r) => r.type)).toEqual(
      expect.arrayContaining([
        "booking-canceled",
        "booking-completed",
        "booking-created",
        "booking-rescheduled",
        "booking-service-replaced",
        "booking-staffer-changed",
        "booking-status-changed",
        "customer-created",
      ]),
    );
  });

  it("unknown and foreign bookings are 404 for every operation", async () => {
    const other = await createSalon(1);
    const theirs = await other.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: other.location.uuid,
        service_uuid: other.cut.uuid,
        reserved_on: at("09:00", "2030-03-04"),
        ...customer(),
      },
    });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
    const statuses = await salon.ws.api("/booking-statuses");
    const confirmed = statuses.body.data.find((s: { type: string }) => s.type === "confirmed");
    // Bodies valid for this workspace, so only the booking itself can be refused.
    const operations: [string, string, string, unknown][] = [
      ["complete", "PUT", "status/complete", { account_uuid: account.uuid }],
      ["cancel", "PUT", "status/cancel", { cancel_reason: "didnt_come" }],
      ["status", "PUT", "status", { status_uuid: confirmed.uuid }],
      ["reschedule", "PUT", "reschedule", { reserved_on: at("11:00", "2030-03-04") }],
      ["staffer", "PUT", "staffer", { staffer_uuid: salon.staffers[1]?.uuid }],
      ["services", "PUT", "services", { service_uuid: salon.colour.uuid }],
      ["public_notes", "POST", "public_notes", { value: "Hello" }],
    ];
    expect(operations).toHaveLength(7);
    for (const id of [crypto.randomUUID(), theirs.body.uuid as string]) {
      for (const [name, method, path, body] of operations) {
        const res = await salon.ws.api(`/bookings/${id}/${path}`, { method, body });
        expect(res.status, `${name} on ${id}: ${JSON.stringify(res.body)}`).toBe(404);
        expect(res.body.code).toBe("not_found");
      }
    }
    // Their booking is untouched.
    const after = await other.ws.api(`/bookings/${theirs.body.uuid}`);
    expect(after.body).toEqual(theirs.body);
  });
});
