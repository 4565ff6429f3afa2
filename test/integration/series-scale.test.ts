import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { failpoints } from "../../src/platform/failpoints";
import { expectInSync } from "../helpers/calendar";
import { d1RoundTrips } from "../helpers/http";
import { createSalon, type Salon } from "../helpers/salon";
import { seedSeries, timing, weeklyLocal } from "../helpers/series";
import { everyShard } from "../helpers/every-shard";

/**
 * A series at its maximum, 52 weekly occurrences with one staffer, changed at
 * once: one calendar claim and one confirm for the staffer (not 52 of each),
 * one read batch and one write batch, well inside 100 statements. The
 * numbers are in docs/scaling.md.
 */
let salon: Salon;
beforeAll(async () => {
  salon = await createSalon(1);
});

const count = async (sql: string, ...binds: unknown[]) =>
  (
    await everyShard
      .prepare(sql)
      .bind(...binds)
      .first<{ n: number }>()
  )?.n ?? 0;

/** Statements of each calendar write's batch (the one with the fence guard), as sent. */
function watchWriteBatches(): number[] {
  const sizes: number[] = [];
  failpoints.arm(
    "d1.batch.committed",
    (sql) => {
      if (sql.includes("hold_fences")) sizes.push(sql.split(";\n").length);
      return false;
    },
    Number.POSITIVE_INFINITY,
  );
  return sizes;
}

afterEach(() => failpoints.disarmAll());

describe("52 occurrences at once", () => {
  it("reschedules all 52 across both DST changes in one claim per calendar and one batch", async () => {
    const starts = weeklyLocal("2032-01-06", "10:00", 52);
    const s = await seedSeries(salon, { starts, phone: "+49 151 71000000" });
    const batches = watchWriteBatches();
    const res = await salon.ws.api(`/series/${s.id}/reschedule`, {
      method: "PUT",
      body: {
        from_booking_uuid: s.bookings[0],
        reserved_on: weeklyLocal("2032-01-06", "11:00", 1)[0],
        is_send_notification_on_reschedule: true,
      },
    });
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
    const numbers = {
      d1RoundTrips: d1RoundTrips(res.headers),
      d1Statements: timing(res.headers, "d1-statements"),
      calendarHops: timing(res.headers, "calendar"),
      calendarCalls: timing(res.headers, "calendar-total"),
      calendars: timing(res.headers, "calendars"),
      writeBatch: batches[0],
    };
    console.log("series reschedule, 52 occurrences:", JSON.stringify(numbers));
    expect(numbers).toMatchObject({
      d1RoundTrips: 2,
      calendarHops: 1,
      calendarCalls: 2,
      calendars: 1,
    });
    expect(batches).toHaveLength(1);
    expect(numbers.writeBatch).toBeLessThanOrEqual(20);
    expect(numbers.d1Statements).toBeLessThanOrEqual(50);
    // Every occurrence at 11:00 local, on both sides of both DST changes.
    const moved = weeklyLocal("2032-01-06", "11:00", 52);
    expect(res.body.bookings.map((b: { start_time: string }) => b.start_time)).toEqual(
      moved.map((m) => m.replace(".000Z", "Z")),
    );
    expect(
      await count(
        "select count(*) as n from events where workspace_id = ? and type = 'booking-rescheduled'",
        salon.ws.id,
      ),
    ).toBe(52);
    // One booking-rescheduled message for the customer, listing all 52, not 52 messages.
    const told = await everyShard
      .prepare(
        "select body from messages where booking_id in (select value from json_each(?)) and kind = 'booking-rescheduled'",
      )
      .bind(JSON.stringify(s.bookings))
      .all<{ body: string }>();
    expect(told.results).toHaveLength(1);
    expect(told.results[0]?.body.match(/Haircut/g)).toHaveLength(52);
    await expectInSync(salon.ws.id, [salon.staffers[0]?.uuid ?? ""]);

    batches.length = 0;
    const canceled = await salon.ws.api(`/series/${s.id}/cancel`, { method: "PUT", body: {} });
    expect(canceled.status).toBe(200);
    const cancelNumbers = {
      d1RoundTrips: d1RoundTrips(canceled.headers),
      d1Statements: timing(canceled.headers, "d1-statements"),
      calendarHops: timing(canceled.headers, "calendar"),
      calendarCalls: timing(canceled.headers, "calendar-total"),
      writeBatch: batches[0],
    };
    console.log("series cancel, 52 occurrences:", JSON.stringify(cancelNumbers));
    expect(cancelNumbers).toMatchObject({ d1RoundTrips: 2, calendarHops: 1, calendarCalls: 2 });
    expect(
      await count(
        "select count(*) as n from bookings where series_id = ? and is_canceled = 1",
        s.id,
      ),
    ).toBe(52);
    await expectInSync(salon.ws.id, [salon.staffers[0]?.uuid ?? ""]);
  }, 60_000);
});
