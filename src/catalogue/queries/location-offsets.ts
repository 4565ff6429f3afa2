import { and, eq, gte, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { producing } from "../../db/effects";
import { locationOffsets, locations } from "../../db/schema";
import { zoneOffsets } from "../rules/zone-offsets";

interface OffsetsOf {
  workspaceId: string;
  locationId: string;
  timezone: string;
}

/**
 * The rows of a location's zone from `fromMs` on, in one statement (a DST zone
 * has about 200 transitions to 2100: one JSON parameter, not 600 bound values).
 */
function insertOffsets(db: Database, at: OffsetsOf, fromMs?: number) {
  const rows = zoneOffsets(at.timezone, fromMs).map((r) => [r.fromMs, r.offsetMs]);
  return db
    .insert(locationOffsets)
    .select(
      sql`select ${at.locationId}, ${at.workspaceId}, json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]')
        from json_each(${JSON.stringify(rows)}) j
        where exists (select 1 from ${locations} l where l.id = ${at.locationId} and l.workspace_id = ${at.workspaceId})`,
    )
    .onConflictDoUpdate({
      target: [locationOffsets.locationId, locationOffsets.fromMs],
      set: { offsetMs: sql`excluded.offset_ms` },
    });
}

/** A new location's offsets, written in the batch that creates it. */
export const locationOffsetsOf = (db: Database, at: OffsetsOf) => insertOffsets(db, at);

/**
 * A zone change from `now` on: the past keeps the zone it was lived in (days
 * already counted stay where they were), the future follows the new one. The
 * rollups of future bookings were counted on the old zone's days: once this
 * commits, its effect has them rebuilt (a cancel would otherwise take them
 * off a different day than the one they were added to).
 */
export const zoneChangedAt = (db: Database, at: OffsetsOf, now: number) => [
  db
    .delete(locationOffsets)
    .where(
      and(
        eq(locationOffsets.workspaceId, at.workspaceId),
        eq(locationOffsets.locationId, at.locationId),
        gte(locationOffsets.fromMs, now),
      ),
    ),
  producing(insertOffsets(db, at, now), [
    { kind: "zone-changed", workspaceId: at.workspaceId, locationId: at.locationId, at: now },
  ]),
];
