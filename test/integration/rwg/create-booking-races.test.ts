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
import { everyShard } from "../../helpers/every-shard";
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

const claims = (workspaceId: string) =>
  count("select count(*) as n from rwg_token_claims where workspace_id = ?", workspaceId);

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
    it(`answers five concurrent requests with one token one booking or 409, never a failure (${staffCount} staffer(s))`, async () => {
      const salon = await googleSalon(staffCount);
      const req = createRequest(salon, at("08:00"), `same-token-${staffCount}`);
      // Every request takes its first read (the token's claim) at once.
      failpoints.meet("rwg.create.ask", 5, 5_000);
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => salon.google("CreateBooking", req)),
      );
      const booked = answers.filter((a) => a.status === 200);
      for (const a of answers) {
        if (a.status === 200)
          expect(a.body.booking?.status, JSON.stringify(a.body)).toBe("CONFIRMED");
        else expect([a.status, a.body.code], JSON.stringify(a.body)).toEqual([409, "conflict"]);
      }
      expect(booked.length).toBeGreaterThanOrEqual(1);
      expect(new Set(booked.map((a) => JSON.stringify(a.body))).size).toBe(1);
      // Google's retries of the 409s find the one booking.
      for (const retry of await Promise.all(
        answers.map(() => salon.google("CreateBooking", req)),
      )) {
        expect(retry.body).toEqual(booked[0]?.body);
      }
      expect(await held(salon.ws.id)).toEqual({ bookings: 1, google: 1, entries: 1 });
      expect(await claims(salon.ws.id)).toBe(0);
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

  it("answers 409 (never SLOT_UNAVAILABLE) to the same token while the first request writes, and its retry the first's booking", async () => {
    const salon = await googleSalon(1);
    const req = createRequest(salon, at("08:00"), "slow-winner");
    // The first request holds the only staffer's time, then waits before its batch.
    failpoints.meet("calendar.claimed", 2, 1_500);
    const claimedBefore = failpoints.hits("calendar.claimed");
    const first = salon.google("CreateBooking", req);
    while (failpoints.hits("calendar.claimed") === claimedBefore) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const second = await salon.google("CreateBooking", req);
    expect([second.status, second.body.code], JSON.stringify(second.body)).toEqual([
      409,
      "conflict",
    ]);
    const won = await first;
    expect(won.body.booking?.status, JSON.stringify(won.body)).toBe("CONFIRMED");
    const retried = await salon.google("CreateBooking", req);
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual(won.body);
    expect(await held(salon.ws.id)).toEqual({ bookings: 1, google: 1, entries: 1 });
    expect(await claims(salon.ws.id)).toBe(0);
  });

  it("books over a claim that lapsed (a crashed attempt), and gives up its claim after a failure", async () => {
    const salon = await googleSalon(1);
    const req = createRequest(salon, at("08:00"), "crashed-before");
    await everyShard
      .prepare(
        "insert into rwg_token_claims (workspace_id, idempotency_token, claimed_until) values (?, ?, ?)",
      )
      .bind(salon.ws.id, "crashed-before", Date.now() - 1)
      .run();
    const res = await salon.google("CreateBooking", req);
    expect(res.body.booking?.status, JSON.stringify(res.body)).toBe("CONFIRMED");
    expect(await claims(salon.ws.id)).toBe(0);
    // A refusal (the slot is taken now) leaves no claim behind: the retry is processed again.
    const other = createRequest(
      salon,
      at("08:00"),
      "refused",
      googleUser("u-2", "+49 151 70000099"),
    );
    const refused = await salon.google("CreateBooking", other);
    expect(refused.body.booking_failure?.cause).toBe("SLOT_UNAVAILABLE");
    expect(await claims(salon.ws.id)).toBe(0);
  });

  it("answers 409 while a live claim holds the token", async () => {
    const salon = await googleSalon(1);
    await everyShard
      .prepare(
        "insert into rwg_token_claims (workspace_id, idempotency_token, claimed_until) values (?, ?, ?)",
      )
      .bind(salon.ws.id, "held", Date.now() + 30_000)
      .run();
    const res = await salon.google("CreateBooking", createRequest(salon, at("08:00"), "held"));
    expect([res.status, res.body.code]).toEqual([409, "conflict"]);
    expect(await held(salon.ws.id)).toEqual({ bookings: 0, google: 0, entries: 0 });
  });

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
