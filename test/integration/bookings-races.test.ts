import { beforeAll, describe, expect, it } from "vitest";
import { failpoints } from "../../src/platform/failpoints";
import { entriesOf, expectInSync, liveIntervals, overlaps } from "../helpers/calendar";
import { apiDirect } from "../helpers/direct";
import { admin, type Client, client, type Received } from "../helpers/http";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

/**
 * Two changes to one booking started together, for every pair of lifecycle
 * operations (each with itself too), several rounds each. Whatever the
 * interleaving, the end state must be one that some sequential order of the
 * two would give: calendars equal to D1, every live service blocking exactly
 * its time, everything else bookable again, money moved at most once.
 */
const ROUNDS = 3;

let salon: Salon;
let account: { uuid: string };
let confirmedStatus: string;
let staff: string[];
let api: Client;
/** Set-up and probes bypass the pool's self-binding, whose cost grows with every call. */
let setup: ReturnType<typeof apiDirect>;

beforeAll(async () => {
  salon = await createSalon(3);
  staff = salon.staffers.map((s) => s.uuid);
  api = salon.ws.api;
  setup = apiDirect(salon.ws);
  const till = await admin(`/workspaces/${salon.ws.id}/accounts`, {
    method: "POST",
    body: { location_uuid: salon.location.uuid, name: "Till", type: "cash" },
  });
  account = till.body;
  const statuses = await api("/booking-statuses");
  confirmedStatus = statuses.body.data.find((s: { type: string }) => s.type === "confirmed").uuid;
});

type OpName = "reschedule" | "staffer" | "services" | "complete" | "cancel" | "status" | "notes";
const OPS: OpName[] = [
  "reschedule",
  "staffer",
  "services",
  "complete",
  "cancel",
  "status",
  "notes",
];

interface Round {
  date: string;
  booking: string;
}

/** The request of an operation; `second` picks another target when an operation races itself. */
function request(
  op: OpName,
  round: Round,
  second: boolean,
): [string, { method: string; body: unknown }] {
  const path = `/bookings/${round.booking}`;
  switch (op) {
    case "reschedule":
      return [
        `${path}/reschedule`,
        { method: "PUT", body: { reserved_on: at(second ? "14:00" : "12:00", round.date) } },
      ];
    case "staffer":
      return [`${path}/staffer`, { method: "PUT", body: { staffer_uuid: staff[second ? 2 : 1] } }];
    case "services":
      return [`${path}/services`, { method: "PUT", body: { service_uuid: salon.colour.uuid } }];
    case "complete":
      return [`${path}/status/complete`, { method: "PUT", body: { account_uuid: account.uuid } }];
    case "cancel":
      return [`${path}/status/cancel`, { method: "PUT", body: { cancel_reason: "canceled" } }];
    case "status":
      return [`${path}/status`, { method: "PUT", body: { status_uuid: confirmedStatus } }];
    case "notes":
      return [`${path}/public_notes`, { method: "POST", body: { value: second ? "y" : "x" } }];
  }
}

const CONFLICTS = new Set([
  "booking_changed",
  "booking_closed",
  "slot_unavailable",
  "booking_not_replaceable",
]);

let dayIndex = 0;
/** A new weekday in 2031 per round, so rounds never share calendar time. */
function nextDate() {
  dayIndex += 1;
  const week = Math.floor((dayIndex - 1) / 5);
  const weekday = (dayIndex - 1) % 5;
  // 2031-01-06 is a Monday.
  return new Date(Date.UTC(2031, 0, 6) + (week * 7 + weekday) * 86_400_000)
    .toISOString()
    .slice(0, 10);
}

async function freshBooking(): Promise<Round> {
  const date = nextDate();
  const res = await setup("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      staffer_uuid: staff[0],
      reserved_on: at("10:00", date),
      ...customer(`+49 151 7${String(dayIndex).padStart(7, "0")}`),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { date, booking: res.body.uuid };
}

interface BookingRow {
  is_canceled: number;
  is_completed: number;
  start_at: number;
  status_id: string;
  public_notes: string;
  order_id: string;
}

async function checkRound(round: Round, a: OpName, b: OpName, results: Received[]) {
  const outcome = `${a} || ${b}: ${results.map((r) => `${r.status} ${(r.body as { code?: string } | null)?.code ?? ""}`).join(", ")}`;
  for (const r of results) {
    expect(r.status, outcome).not.toBeGreaterThanOrEqual(500);
    if (r.status !== 200) {
      expect(r.status, outcome).toBe(409);
      expect(CONFLICTS.has((r.body as { code: string }).code), outcome).toBe(true);
    }
  }
  const ok = (op: OpName, second = false) =>
    [a, b].some(
      (name, i) => name === op && (a !== b || (i === 1) === second) && results[i]?.status === 200,
    );
  const okAny = (op: OpName) => ok(op, false) || ok(op, true);

  const row = await everyShard
    .prepare(
      "select is_canceled, is_completed, start_at, status_id, public_notes, order_id from bookings where id = ?",
    )
    .bind(round.booking)
    .first<BookingRow>();
  if (!row) throw new Error("booking vanished");
  const services = await everyShard
    .prepare(
      "select staffer_id, service_id, reserved_on, reserved_until + buffer * 60000 as ends_at, price from booking_services where booking_id = ?",
    )
    .bind(round.booking)
    .all<{
      staffer_id: string;
      service_id: string;
      reserved_on: number;
      ends_at: number;
      price: number;
    }>();
  const [service] = services.results;
  if (!service) throw new Error("booking without service");

  // Complete and cancel exclude each other; each one that answered 200 is what happened.
  expect(row.is_canceled && row.is_completed, outcome).toBeFalsy();
  if (okAny("complete")) expect(row.is_completed, outcome).toBe(1);
  if (okAny("cancel")) expect(row.is_canceled, outcome).toBe(1);
  if (okAny("reschedule")) {
    const targets = [false, true]
      .filter((s) => ok("reschedule", s))
      .map((s) => Date.parse(at(s ? "14:00" : "12:00", round.date)));
    expect(targets, outcome).toContain(row.start_at);
  }
  if (okAny("staffer")) {
    const targets = [false, true].filter((s) => ok("staffer", s)).map((s) => staff[s ? 2 : 1]);
    expect(targets, outcome).toContain(service.staffer_id);
  }
  if (okAny("services")) expect(service.service_id, outcome).toBe(salon.colour.uuid);
  if (okAny("status")) expect(row.status_id, outcome).toBe(confirmedStatus);

  // Money moved at most once, and exactly once when completed.
  const credits = await everyShard
    .prepare(
      "select count(*) as n, coalesce(sum(amount), 0) as total from account_transactions where booking_id = ?",
    )
    .bind(round.booking)
    .first<{ n: number; total: number }>();
  const order = await everyShard
    .prepare("select account_paid_amount from orders where id = ?")
    .bind(row.order_id)
    .first<{ account_paid_amount: number }>();
  expect(credits?.n, outcome).toBe(row.is_completed ? 1 : 0);
  expect(order?.account_paid_amount, outcome).toBe(credits?.total);

  // Every live booked service blocks exactly its own time in D1 …
  const expected = row.is_canceled
    ? []
    : services.results.map((s) => ({
        staffer_id: s.staffer_id,
        starts_at: s.reserved_on,
        ends_at: s.ends_at,
      }));
  expect(await entriesOf(round.booking), outcome).toEqual(expected);
  // … and every calendar object holds exactly what D1 holds.
  await expectInSync(salon.ws.id, staff);

  // Every other time the pair touched is bookable again.
  const touched = [
    [staff[0], "10:00"],
    [staff[0], "12:00"],
    [staff[0], "14:00"],
    [staff[1], "10:00"],
    [staff[2], "10:00"],
  ] as const;
  for (const [stafferId, hhmm] of touched) {
    const start = Date.parse(at(hhmm, round.date));
    const end = start + 60 * 60_000;
    const blocked = expected.some(
      (e) => e.staffer_id === stafferId && e.starts_at < end && start < e.ends_at,
    );
    if (blocked) continue;
    const probe = await setup("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        staffer_uuid: stafferId,
        reserved_on: at(hhmm, round.date),
        ...customer("+49 151 99999999"),
      },
    });
    expect(
      probe.status,
      `${outcome}; ${hhmm} with ${stafferId}: ${JSON.stringify(probe.body)}`,
    ).toBe(201);
  }
}

describe("two changes to one booking at once", () => {
  const pairs = OPS.flatMap((a, i) => OPS.slice(i).map((b) => [a, b] as const));

  it.each(pairs)(
    "%s || %s",
    async (a, b) => {
      // A key per pair keeps the run under the per-key rate limit.
      const key = await admin(`/workspaces/${salon.ws.id}/api-keys`, { method: "POST" });
      api = client(salon.ws.id, key.body.api_key);
      setup = apiDirect({ ...salon.ws, apiKey: key.body.api_key });
      for (let round = 0; round < ROUNDS; round++) {
        const fresh = await freshBooking();
        // The first round forces both to read before either writes; the others race freely.
        if (round === 0) failpoints.meet("booking.change.before_write", 2, 5_000);
        const [pathA, sentA] = request(a, fresh, false);
        const [pathB, sentB] = request(b, fresh, a === b);
        const results = await Promise.all([api(pathA, sentA), api(pathB, sentB)]);
        await checkRound(fresh, a, b, results);
      }
    },
    60_000,
  );

  it("the races were real: the version guard and the calendar lock both refused writes", () => {
    // Without these, every 409 above could have come from the plain pre-checks.
    expect(failpoints.hits("booking.guard_refused")).toBeGreaterThan(0);
    expect(failpoints.hits("calendar.refused.replacing")).toBeGreaterThan(0);
  });

  it("no two live bookings overlap anywhere in the run", async () => {
    expect(overlaps(await liveIntervals(salon.ws.id))).toEqual([]);
  });
});
