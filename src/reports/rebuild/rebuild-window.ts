import { runBatch } from "../../db/client";
import { isGuardFailure } from "../../db/constraints";
import { D1_MAX_BATCH_STATEMENTS } from "../../db/limits";
import type { Scope } from "../../db/scope";
import type { ZoneOffset } from "../../catalogue/rules/zone-offsets";
import { ApiError } from "../../platform/errors";
import { probe, rendezvous } from "../../platform/failpoints";
import { DAY_MS, dayStart } from "../rules/days";
import type { Rollups } from "../rules/raw-rows";
import { type DayWindow, halves } from "../rules/rebuild-windows";
import { rollupsFromRaw } from "../rules/rollups-from-raw";
import type { SaleLine } from "../rules/revenue-entries";
import {
  type BookingServiceRow,
  type OrderLineRow,
  type OrderRow,
  readRawRows,
} from "../queries/raw-reads";
import { replaceRollups } from "../queries/rollup-rebuild";

/**
 * An order's lines as its invoice prices them: a POS order's lines, a booking
 * order's booked services (every booking of its cart). The pos rules do it;
 * reports cannot import pos, so the caller hands it in.
 */
export type SaleLinesOf = (
  order: OrderRow,
  lines: OrderLineRow[],
  services: BookingServiceRow[],
) => SaleLine[];

const TRIES = 3;

/**
 * Rebuilds a location's rollup rows on the days of one window: one read batch
 * of the raw rows that can count on them (and Σ changes), one write batch
 * guarded on Σ unchanged that replaces them. A write that moved a rollup
 * meanwhile makes it read and compute again (up to 3 times, then 409). A
 * window whose write would not fit in one batch is done as its two halves.
 * Answers the rows written.
 */
export async function rebuildWindow(
  scope: Scope,
  locationId: string,
  offsets: readonly ZoneOffset[],
  w: DayWindow,
  saleLinesOf: SaleLinesOf,
): Promise<number> {
  // A day's instants are [dayStart(d), dayStart(d + 1)); a day each side spares any doubt.
  const window = {
    ...w,
    fromMs: dayStart(w.first, offsets) - DAY_MS,
    toMs: dayStart(w.last + 1, offsets) + DAY_MS,
  };
  for (let i = 1; ; i++) {
    const raw = await readRawRows(scope, locationId, window);
    const rollups = inWindow(computeRollups(raw, locationId, saleLinesOf), w);
    probe("reports.rebuild.read");
    const statements = replaceRollups(scope, locationId, raw, w, rollups);
    if (statements.length > D1_MAX_BATCH_STATEMENTS) {
      const parts = halves(w);
      if (parts) {
        let rows = 0;
        for (const part of parts)
          rows += await rebuildWindow(scope, locationId, offsets, part, saleLinesOf);
        return rows;
      }
    }
    // The race tests write between the read and the write here.
    await rendezvous("reports.rebuild.before_write");
    try {
      await runBatch(scope.db, statements);
      return rollups.revenue.length + rollups.calendar.length + rollups.bookings.length;
    } catch (error) {
      if (isGuardFailure(error)) probe("reports.rebuild.guard_refused");
      if (!isGuardFailure(error) || i >= TRIES) {
        if (isGuardFailure(error))
          throw new ApiError(
            "conflict",
            "The location's reports kept changing while they were rebuilt; try again.",
          );
        throw error;
      }
    }
  }
}

type Raw = Awaited<ReturnType<typeof readRawRows>>;

function computeRollups(raw: Raw, locationId: string, saleLinesOf: SaleLinesOf): Rollups {
  const linesOf = new Map<string, OrderLineRow[]>();
  for (const line of raw.orderLines)
    linesOf.set(line.orderId, [...(linesOf.get(line.orderId) ?? []), line]);
  const servicesOf = new Map<string, BookingServiceRow[]>();
  const orderOf = new Map(raw.bookings.map((b) => [b.id, b.orderId]));
  for (const s of raw.bookingServices) {
    const orderId = orderOf.get(s.bookingId) ?? "";
    servicesOf.set(orderId, [...(servicesOf.get(orderId) ?? []), s]);
  }
  return rollupsFromRaw({
    ...raw,
    locationId,
    orders: raw.orders.map((o) => ({
      ...o,
      lines: saleLinesOf(o, linesOf.get(o.id) ?? [], servicesOf.get(o.id) ?? []),
    })),
  });
}

/** The rows on the window's days: the raw rows read may count on days around it too. */
function inWindow(r: Rollups, w: DayWindow): Rollups {
  const keep = (row: { day: number }) => row.day >= w.first && row.day <= w.last;
  return {
    revenue: r.revenue.filter(keep),
    calendar: r.calendar.filter(keep),
    bookings: r.bookings.filter(keep),
  };
}
