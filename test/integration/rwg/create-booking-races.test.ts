import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { failpoints } from "../../../src/platform/failpoints";
import { expectInSync, expireHolds } from "../../helpers/calendar";
import {
  calendarBatch,
  countOf,
  faultSuite,
  weekdays,
  withFailingInserts,
  type FaultyWrite,
} from "../../helpers/faults";
import { at, customer } from "../../helpers/salon";
import { googleSalon, googleUser, sec } from "../../helpers/rwg";

/**
 * CreateBooking under races and faults: one token never makes two bookings, one slot is
 * never given twice, a loser never answers 500 nor leaves time held, and a request that
 * failed is not remembered (its retry books).
 */
type GoogleSalon = Awaited<ReturnType<typeof googleSalon>>;

afterEach(() => failpoints.disarmAll());

const createRequest = (
  salon: GoogleSalon,
  iso: string,
  token: string,
  user = googleUser(),
  staffId?: string,
) => ({
  slot: {
    merchant_id: salon.location.uuid,
    service_id: salon.cut.uuid,
    start_sec: sec(iso),
    duration_sec: "2700",
    ...(staffId ? { resources: { staff_id: staffId } } : {}),
  },
  user_information: user,
  idempotency_token: token,
});

const count = (sql: string, ...binds: unknown[]) => countOf(sql, ...binds);

/** What a salon holds of its bookings: live bookings, Google's rows and calendar entries. */
async function held(workspaceId: string) {
  return {
    bookings: await count(
      "select count(*) as n from bookings where workspace_id = ? and is_canceled = 0",
      workspaceId,
    ),
    google: await count(
      "select count(*) as n from rwg_bookings where workspace_id = ?",
      workspaceId,
    ),
    entries: await count(
      "select count(*) as n from calendar_entries where workspace_id = ?",
      workspaceId,
    ),
  };
}

describe("Reserve with Google: CreateBooking races", () => {
  for (const staffCount of [3, 1]) {
    it(`answers five concurrent requests with one token one booking (${staffCount} staffer(s))`, async () => {
      const salon = await googleSalon(staffCount);
      const req = createRequest(salon, at("08:00"), `same-token-${staffCount}`);
      // Every request reads (and misses the token) before any claims or writes.
      failpoints.meet("booking.create.read", 5, 5_000);
      const racedBefore = failpoints.hits("rwg.create.token_raced");
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => salon.google("CreateBooking", req)),
      );
      for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);
      const booked = answers.filter((a) => a.body.booking);
      const ids = new Set(booked.map((a) => a.body.booking.booking_id));
      expect(ids.size).toBe(1);
      // Each answers the winner's booking: a loser never says the slot is gone when its token booked it.
      expect(answers.map((a) => JSON.stringify(a.body))).toEqual(
        Array(5).fill(JSON.stringify(booked[0]?.body)),
      );
      // With staffers to spare, losers were granted time too: their batches met the token's index.
      if (staffCount > 1) {
        expect(failpoints.hits("rwg.create.token_raced") - racedBefore).toBeGreaterThan(0);
      }
      expect(await held(salon.ws.id)).toEqual({ bookings: 1, google: 1, entries: 1 });
      await expectInSync(
        salon.ws.id,
        salon.staffers.map((s) => s.uuid),
      );
      const confirmations = await count(
        "select count(*) as n from messages where workspace_id = ? and kind = 'booking-confirmation'",
        salon.ws.id,
      );
      expect(confirmations).toBe(1);
    });
  }

  it("gives one slot to one of ten tokens: one CONFIRMED, nine SLOT_UNAVAILABLE, one booking", async () => {
    const salon = await googleSalon(1);
    failpoints.meet("booking.create.read", 10, 5_000);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        salon.google(
          "CreateBooking",
          createRequest(
            salon,
            at("08:00"),
            `one-slot-${i}`,
            googleUser(`user-${i}`, `+49 151 7000000${i}`),
          ),
        ),
      ),
    );
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);
    const outcomes = answers.map((a) => a.body.booking?.status ?? a.body.booking_failure?.cause);
    expect(outcomes.filter((o) => o === "CONFIRMED")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "SLOT_UNAVAILABLE")).toHaveLength(9);
    expect(await held(salon.ws.id)).toEqual({ bookings: 1, google: 1, entries: 1 });
    await expectInSync(
      salon.ws.id,
      salon.staffers.map((s) => s.uuid),
    );
    // The calendar holds nothing of the losers: the booking's time alone is taken.
    const after = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: at("09:00"),
        ...customer("+49 151 71111111"),
      },
    });
    expect(after.status, JSON.stringify(after.body)).toBe(201);
  });

  it("remembers nothing of a batch that failed for certain: no row, no time held, and the retry books", async () => {
    const salon = await googleSalon(1);
    const req = createRequest(salon, at("08:00"), "fails-then-books");
    const failed = await withFailingInserts("rwg_bookings", () =>
      salon.google("CreateBooking", req),
    );
    expect(failed.status).toBe(500);
    expect(await held(salon.ws.id)).toEqual({ bookings: 0, google: 0, entries: 0 });
    await expectInSync(
      salon.ws.id,
      salon.staffers.map((s) => s.uuid),
    );
    const retried = await salon.google("CreateBooking", req);
    expect(retried.body.booking?.status, JSON.stringify(retried.body)).toBe("CONFIRMED");
    expect(await held(salon.ws.id)).toEqual({ bookings: 1, google: 1, entries: 1 });
  });

  it("remembers nothing of a batch lost on its way to D1, and the retry books", async () => {
    const salon = await googleSalon(1);
    const req = createRequest(salon, at("08:00"), "lost-then-books");
    failpoints.arm("d1.batch.lost", calendarBatch);
    const lost = await salon.google("CreateBooking", req);
    expect(lost.status).toBe(500);
    expect(await held(salon.ws.id)).toEqual({ bookings: 0, google: 0, entries: 0 });
    const retried = await salon.google("CreateBooking", req);
    expect(retried.body.booking?.status, JSON.stringify(retried.body)).toBe("CONFIRMED");
  });
});

// The fault suite (test/helpers/faults.ts) over CreateBooking, as over the public API's writes.
let salon: GoogleSalon;
let staff: string[];
beforeAll(async () => {
  salon = await googleSalon(3);
  staff = salon.staffers.map((s) => s.uuid);
});
const nextDate = weekdays("2032-02-02");

interface Ctx {
  date: string;
  token: string;
}
type Slot = [number, string];

const startOf = (ctx: Ctx) => Date.parse(at("10:00", ctx.date));

const WRITES: FaultyWrite<Ctx, Slot>[] = [
  {
    name: "CreateBooking",
    arrange: async () => ({ date: nextDate(), token: crypto.randomUUID() }),
    act: (ctx) =>
      salon.google(
        "CreateBooking",
        createRequest(salon, at("10:00", ctx.date), ctx.token, googleUser(), staff[0]),
      ),
    status: 200,
    busy: [0, "10:00"],
    failingTable: "rwg_bookings",
    faults: ["unheard", "confirm lost", "answer and settlement lost", "certain failure", "lost"],
    written: async (ctx) =>
      (await count(
        "select count(*) as n from bookings where workspace_id = ? and start_at = ?",
        salon.ws.id,
        startOf(ctx),
      )) === 1,
    // Committed: the token answers the same booking again, and it is the one in D1.
    afterCommit: async (ctx, res) => {
      const replay = await salon.google(
        "CreateBooking",
        createRequest(salon, at("10:00", ctx.date), ctx.token, googleUser(), staff[0]),
      );
      if (res.status === 200) expect(replay.body).toEqual(res.body);
      expect(replay.body.booking?.status).toBe("CONFIRMED");
    },
    unchanged: async (ctx) => {
      expect(
        await count(
          "select count(*) as n from rwg_bookings where workspace_id = ? and idempotency_token = ?",
          salon.ws.id,
          ctx.token,
        ),
      ).toBe(0);
    },
  },
];

faultSuite<Ctx, Slot>({
  writes: WRITES,
  probe: async (ctx, [staffer, hhmm]) =>
    (
      await salon.ws.api("/bookings", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          service_uuid: salon.cut.uuid,
          staffer_uuid: staff[staffer],
          reserved_on: at(hhmm, ctx.date),
          ...customer("+49 151 60000003"),
        },
      })
    ).status,
  inSync: () => expectInSync(salon.ws.id, staff),
  expireHolds: () => expireHolds(salon.ws.id, staff),
  losses: 3,
});
