import { runBatch } from "../../db/client";
import type { Scope } from "../../db/scope";
import { locationOffsetsOf } from "../../catalogue/queries/location-offsets";
import { notFound } from "../../platform/errors";
import { dayOf } from "../rules/days";
import { rebuildWindows } from "../rules/rebuild-windows";
import { readRebuildExtent } from "../queries/rebuild-extent";
import { rebuildLocations } from "../queries/rebuild-locations";
import { rebuildWindow, type SaleLinesOf } from "./rebuild-window";

export type { SaleLinesOf };

/**
 * Rebuilds a location's rollups (or every location's) from the raw rows: what
 * an upgrade, a repair or a doubt needs. A location created before 0038 gets
 * its offsets first. Each location is rebuilt in windows of days, each read
 * in one batch and written in one batch guarded on Σ changes (rebuild-window).
 */
export async function rebuildReports(
  scope: Scope,
  saleLinesOf: SaleLinesOf,
  locationId?: string,
  since?: number,
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
    rows += await rebuildLocation(scope, location.id, saleLinesOf, since);
  }
  return { locations: found.length, rows };
}

/**
 * Window by window over every day its raw rows count on or its rollups hold;
 * with `since`, only from two days before it (a zone change moves no day
 * before the instant it took effect: offsets differ by less than a day).
 */
async function rebuildLocation(
  scope: Scope,
  locationId: string,
  saleLinesOf: SaleLinesOf,
  since?: number,
) {
  const extent = await readRebuildExtent(scope, locationId);
  const { offsets } = extent;
  const from = since === undefined ? -Infinity : dayOf(since, offsets) - 2;
  const span = extent.span && {
    first: Math.max(from, dayOf(extent.span.first, offsets) - 1),
    last: dayOf(extent.span.last, offsets) + 1,
  };
  let rows = 0;
  const kept = extent.rollupDays.filter((day) => day >= from);
  for (const w of rebuildWindows(span && span.first <= span.last ? span : null, kept))
    rows += await rebuildWindow(scope, locationId, offsets, w, saleLinesOf);
  return rows;
}
