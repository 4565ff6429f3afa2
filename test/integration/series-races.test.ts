import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { failpoints } from "../../src/platform/failpoints";
import { entriesOf, expectInSync, liveIntervals, overlaps } from "../helpers/calendar";
import type { Received } from "../helpers/http";
import { createSalon, type Salon } from "../helpers/salon";
import { seedSeries, type SeededSeries, weeklyLocal } from "../helpers/series";
import { everyShard } from "../helpers/every-shard";

/**
 * Two series changes at once, or a series change racing a change of one of
 * its occurrences, end as some order of the two would: never a mix (some
 * occurrences moved by one, some by the other), never a double booking, and
 * the calendars equal D1 afterwards. Each pair runs started together
 * (Promise.all) for several rounds, and once in a forced interleaving where
 * both have read before either writes (`booking.change.before_write`).
 */
let salon: Salon;
let staff: string[];
beforeAll(async () => {
  salon = await createSalon(1);
  staff = salon.staffers.map((s) => s.uuid);
});
afterEach(() => failpoints.disarmAll());

const HOUR = 3_600_000;
const WEEK = 7 * 86_400_000;
const ROUNDS = 3;

/**
 * Each round on its own three Mondays at 10:00 local, three weeks after the
 * last round's (a weekly series keeps its local time across a DST change).
 */
let round = 0;
function nextSeries(): Promise<SeededSeries & { starts: number[] }> {
  const monday = new Date(Date.parse("2033-01-03T00:00:00Z") + round * 3 * WEEK);
  round += 1;
  const local = weeklyLocal(monday.toISOString().slice(0, 10), "10:00", 3);
  const starts = local.map((s) => Date.parse(s));
  return seedSeries(salon, {
    starts: local,
    phone: `+49 151 72${String(round).padStart(6, "0")}`,
  }).then((s) => ({ ...s, starts }));
}

const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

const rows = async (ids: string[]) =>
  Promise.all(
    ids.map(async (id) => {
      const row = await everyShard
        .prepare("select start_at, is_canceled, series_id from bookings where id = ?")
        .bind(id)
        .first<{ start_at: number; is_canceled: number; series_id: string }>();
      if (!row) throw new Error(`no booking ${id}`);
      return row;
    }),
  );

const seriesCancel = (s: SeededSeries) =>
  salon.ws.api(`/series/${s.id}/cancel`, { method: "PUT", body: {} });
/** The whole series moved by `hours` (10:00 → 10:00 + hours, local). */
const seriesMove = (s: SeededSeries & { starts: number[] }, hours: number) =>
  salon.ws.api(`/series/${s.id}/reschedule`, {
    method: "PUT",
    body: { from_booking_uuid: s.bookings[0], reserved_on: iso((s.starts[0] ?? 0) + hours * HOUR) },
  });
const singleMove = (s: SeededSeries, k: number, to: number) =>
  salon.ws.api(`/bookings/${s.bookings[k]}/reschedule`, {
    method: "PUT",
    body: { reserved_on: iso(to) },
  });
const singleCancel = (s: SeededSeries, k: number) =>
  salon.ws.api(`/bookings/${s.bookings[k]}/status/cancel`, { method: "PUT", body: {} });

/** No double booking, every calendar equals D1, and each live booking's entries are its time. */
async function consistent(s: SeededSeries) {
  expect(overlaps(await liveIntervals(salon.ws.id))).toEqual([]);
  await expectInSync(salon.ws.id, staff);
  for (const [i, row] of (await rows(s.bookings)).entries()) {
    const entries = await entriesOf(s.bookings[i] ?? "");
    if (row.is_canceled) expect(entries).toEqual([]);
    else expect(entries.map((e) => e.starts_at)).toEqual([row.start_at]);
    expect(row.series_id).toBe(s.id);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = Received<any>;
const ok = (res: Answer, ...statuses: number[]) =>
  expect(statuses, JSON.stringify(res.body)).toContain(res.status);

/** A race between two requests, in every way the suite runs them. */
function race(
  name: string,
  run: (s: SeededSeries & { starts: number[] }) => [Promise<Answer>, Promise<Answer>],
  check: (s: SeededSeries & { starts: number[] }, a: Answer, b: Answer) => Promise<void>,
) {
  describe(name, () => {
    it(`started together, ${ROUNDS} rounds`, async () => {
      for (let r = 0; r < ROUNDS; r++) {
        const s = await nextSeries();
        const [a, b] = await Promise.all(run(s));
        await check(s, a, b);
        await consistent(s);
      }
    });
    it("both read before either writes", async () => {
      const s = await nextSeries();
      failpoints.meet("booking.change.before_write", 2);
      const [a, b] = await Promise.all(run(s));
      await check(s, a, b);
      await consistent(s);
    });
  });
}

race(
  "series cancel vs series reschedule",
  (s) => [seriesCancel(s), seriesMove(s, 1)],
  async (s, cancel, move) => {
    ok(cancel, 200);
    // Moved first, then canceled; or canceled first, and the move finds its occurrence closed.
    ok(move, 200, 409);
    const after = await rows(s.bookings);
    expect(after.every((r) => r.is_canceled === 1)).toBe(true);
    const shift = move.status === 200 ? HOUR : 0;
    expect(after.map((r) => r.start_at)).toEqual(s.starts.map((t) => t + shift));
    if (move.status === 409) expect(move.body.code).toBe("booking_closed");
  },
);

race(
  "series reschedule vs series reschedule",
  (s) => [seriesMove(s, 1), seriesMove(s, 2)],
  async (s, one, two) => {
    ok(one, 200, 409);
    ok(two, 200, 409);
    const after = await rows(s.bookings);
    // Never a mix: every occurrence moved by the same one of the two.
    const shifts = new Set(after.map((r, i) => r.start_at - (s.starts[i] ?? 0)));
    expect(shifts.size).toBe(1);
    const [shift] = [...shifts];
    expect([HOUR, 2 * HOUR]).toContain(shift);
    if (one.status !== 200) expect(shift).toBe(2 * HOUR);
    if (two.status !== 200) expect(shift).toBe(HOUR);
  },
);

race(
  "series cancel vs series cancel",
  (s) => [seriesCancel(s), seriesCancel(s)],
  async (s, one, two) => {
    ok(one, 200, 409);
    ok(two, 200, 409);
    const versions = await Promise.all(
      s.bookings.map(
        async (id) =>
          (
            await everyShard
              .prepare("select version from bookings where id = ?")
              .bind(id)
              .first<{ version: number }>()
          )?.version,
      ),
    );
    // Canceled once: the second found nothing left to cancel.
    expect(versions).toEqual([1, 1, 1]);
    expect((await rows(s.bookings)).every((r) => r.is_canceled === 1)).toBe(true);
  },
);

race(
  "series reschedule vs a single occurrence's reschedule",
  (s) => [seriesMove(s, 1), singleMove(s, 1, (s.starts[1] ?? 0) + 5 * HOUR)],
  async (s, series, single) => {
    ok(series, 200, 409);
    ok(single, 200, 409);
    const after = await rows(s.bookings);
    const target = (s.starts[1] ?? 0) + 5 * HOUR;
    // The others moved with the series (or not at all, had it lost twice); the single one
    // is where the later of the two put it.
    const seriesShift = series.status === 200 ? HOUR : 0;
    expect(after[0]?.start_at).toBe((s.starts[0] ?? 0) + seriesShift);
    expect(after[2]?.start_at).toBe((s.starts[2] ?? 0) + seriesShift);
    const possible = [
      ...(single.status === 200 ? [target, target + seriesShift] : []),
      (s.starts[1] ?? 0) + seriesShift,
    ];
    expect(possible).toContain(after[1]?.start_at);
  },
);

race(
  "series reschedule vs a single occurrence's cancel",
  (s) => [seriesMove(s, 1), singleCancel(s, 1)],
  async (s, series, single) => {
    ok(series, 200, 409);
    ok(single, 200);
    const after = await rows(s.bookings);
    const seriesShift = series.status === 200 ? HOUR : 0;
    expect(after[0]?.start_at).toBe((s.starts[0] ?? 0) + seriesShift);
    expect(after[2]?.start_at).toBe((s.starts[2] ?? 0) + seriesShift);
    expect(after[1]?.is_canceled).toBe(1);
    // Canceled where it was when the cancel ran: before the move or after it.
    expect([s.starts[1], (s.starts[1] ?? 0) + seriesShift]).toContain(after[1]?.start_at);
    // The series' answer agrees with the order: had the cancel come first, it shows it canceled.
    if (series.status === 200) {
      const shown = series.body.bookings[1];
      if (shown.is_canceled) expect(after[1]?.start_at).toBe(s.starts[1]);
      else expect(after[1]?.start_at).toBe((s.starts[1] ?? 0) + HOUR);
    }
  },
);

race(
  "series cancel vs a single occurrence's reschedule",
  (s) => [seriesCancel(s), singleMove(s, 2, (s.starts[2] ?? 0) + 4 * HOUR)],
  async (s, series, single) => {
    ok(series, 200, 409);
    ok(single, 200, 409);
    const after = await rows(s.bookings);
    if (series.status === 200) expect(after.every((r) => r.is_canceled === 1)).toBe(true);
    // Moved before the cancel (then canceled where it went), or refused as closed after it.
    if (single.status === 200) expect(after[2]?.start_at).toBe((s.starts[2] ?? 0) + 4 * HOUR);
    else {
      expect(single.body.code).toBe("booking_closed");
      expect(after[2]?.start_at).toBe(s.starts[2]);
    }
  },
);

race(
  "series cancel vs a single occurrence's cancel",
  (s) => [seriesCancel(s), singleCancel(s, 1)],
  async (s, series, single) => {
    ok(series, 200, 409);
    // Canceled first by either: the other finds it closed (the single) or leaves it (the series).
    ok(single, 200, 409);
    const after = await rows(s.bookings);
    expect(after.every((r) => r.is_canceled === 1)).toBe(true);
    // Canceled once, by whichever came first.
    const reason = await everyShard
      .prepare("select version, canceled_by from bookings where id = ?")
      .bind(s.bookings[1])
      .first<{ version: number }>();
    expect(reason?.version).toBe(1);
    if (single.status === 409) expect(single.body.code).toBe("booking_closed");
    if (series.status === 200 && single.status === 200)
      // The single went first: the series shows it canceled as it found it.
      expect(series.body.bookings[1].is_canceled).toBe(true);
  },
);

describe("a time a calendar holds that D1 does not show yet", () => {
  it("is a conflict of the occurrence it hits: 409 with that start, nothing written", async () => {
    const s = await nextSeries();
    const target = (s.starts[2] ?? 0) + 3 * HOUR;
    // Another booking claims the third occurrence's new time and waits before its batch.
    failpoints.meet("calendar.claimed", 2, 1_500);
    const other = salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        staffer_uuid: staff[0],
        reserved_on: iso(target),
        customer_phone: "+49 151 72999999",
        customer_first_name: "Ben",
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refusals = failpoints.hits("calendar.refused.overlap");
    const moved = await seriesMove(s, 3);
    // Refused by the calendar, not by the plan's read of D1.
    expect(failpoints.hits("calendar.refused.overlap")).toBeGreaterThan(refusals);
    expect(moved.status, JSON.stringify(moved.body)).toBe(409);
    expect(moved.body.code).toBe("slot_unavailable");
    expect(moved.body.conflicts.map((c: { start: string }) => c.start)).toEqual([iso(target)]);
    expect((await other).status).toBe(201);
    expect((await rows(s.bookings)).map((r) => r.start_at)).toEqual(s.starts);
    await consistent(s);
  });
});
