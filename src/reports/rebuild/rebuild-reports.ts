import { runBatch } from "../../db/client";
import { isGuardFailure } from "../../db/constraints";
import type { Scope } from "../../db/scope";
import { locationOffsetsOf } from "../../catalogue/queries/location-offsets";
import { ApiError, notFound } from "../../platform/errors";
import { probe, rendezvous } from "../../platform/failpoints";
import type { SaleLine } from "../rules/revenue-entries";
import { rollupsFromRaw } from "../rules/rollups-from-raw";
import {
  type BookingServiceRow,
  type OrderLineRow,
  type OrderRow,
  readRawRows,
} from "../queries/raw-reads";
import { rebuildLocations } from "../queries/rebuild-locations";
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
 * Rebuilds a location's rollups (or every location's) from the raw rows: what
 * an upgrade, a repair or a doubt needs. A location created before 0038 gets
 * its offsets first. Each location is read in one batch and written in one
 * batch guarded on Σ changes, so a write that moved a rollup meanwhile makes
 * it read and compute again (up to 3 times).
 */
export async function rebuildReports(
  scope: Scope,
  saleLinesOf: SaleLinesOf,
  locationId?: string,
): Promise<{ locations: number; rows: number }> {
  const found = await rebuildLocations(scope, locationId);
  if (locationId !== undefined && found.length === 0) throw notFound("Location");
  let rows = 0;
  for (const location of found) {
    if (!location.hasOffsets)
      await runBatch(scope.db, [
        locationOffsetsOf(scope.db, {
          workspaceId: scope.workspaceId,
          locationId: location.id,
          timezone: location.timezone,
        }),
      ]);
    rows += await rebuildLocation(scope, location.id, saleLinesOf);
  }
  return { locations: found.length, rows };
}

async function rebuildLocation(scope: Scope, locationId: string, saleLinesOf: SaleLinesOf) {
  for (let i = 1; ; i++) {
    const raw = await readRawRows(scope, locationId);
    const linesOf = new Map<string, OrderLineRow[]>();
    for (const line of raw.orderLines)
      linesOf.set(line.orderId, [...(linesOf.get(line.orderId) ?? []), line]);
    const servicesOf = new Map<string, BookingServiceRow[]>();
    const orderOf = new Map(raw.bookings.map((b) => [b.id, b.orderId]));
    for (const s of raw.bookingServices) {
      const orderId = orderOf.get(s.bookingId) ?? "";
      servicesOf.set(orderId, [...(servicesOf.get(orderId) ?? []), s]);
    }
    const rollups = rollupsFromRaw({
      ...raw,
      locationId,
      orders: raw.orders.map((o) => ({
        ...o,
        lines: saleLinesOf(o, linesOf.get(o.id) ?? [], servicesOf.get(o.id) ?? []),
      })),
    });
    probe("reports.rebuild.read");
    // The race tests write between the read and the write here.
    await rendezvous("reports.rebuild.before_write");
    try {
      await runBatch(scope.db, replaceRollups(scope, locationId, raw.changes, rollups));
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
