import { entryRow } from "../entry-rows";
import { commitWithClaims, type Defer, staffClaims } from "../client";
import { loadStafferLocations } from "../../catalogue/queries/staffer-records";
import { type blockedSpots } from "../../db/schema";
import { insertBlockedSpot } from "../queries/blocks";
import type { Scope } from "../../db/scope";
import type { Env } from "../../platform/env";
import { invalid, notFound } from "../../platform/errors";

export interface BlockTimeInput {
  stafferId: string;
  locationId: string;
  /** ISO 8601 instants as sent; stored as sent and as epoch ms. */
  startsAt: string;
  endsAt: string;
  comment?: string | undefined;
  class?: string | undefined;
}

export type BlockedSpotRow = typeof blockedSpots.$inferSelect;

/** What a blocked spot can be wrong about (422): its location, when not the staffer's. */
export type BlockTimeSubject = { is: "location" };

/**
 * Blocks a range of a staffer's time at one of their locations, through the
 * staffer's calendar so it cannot interleave with a booking. The range may
 * lie over existing bookings (a sick day): they stay as they are.
 */
export async function blockTime(
  deps: { scope: Scope; env: Env; defer?: Defer },
  input: BlockTimeInput,
): Promise<BlockedSpotRow> {
  const { scope, env } = deps;
  const { stafferId } = input;
  const staffer = await loadStafferLocations(scope, stafferId);
  if (!staffer.found) throw notFound("Staffer");
  if (!staffer.locationIds.includes(input.locationId)) {
    throw invalid({ is: "location" }, "The staffer is not attached to this location.");
  }

  const row = {
    id: crypto.randomUUID(),
    workspaceId: scope.workspaceId,
    stafferId,
    locationId: input.locationId,
    startsAtRaw: input.startsAt,
    endsAtRaw: input.endsAt,
    startsAt: Date.parse(input.startsAt),
    endsAt: Date.parse(input.endsAt),
    comment: input.comment ?? null,
    class: input.class ?? null,
    createdAt: Date.now(),
  };
  const entry = {
    id: row.id,
    kind: "blocked" as const,
    source: row.id,
    start: row.startsAt,
    end: row.endsAt,
  };
  await commitWithClaims(
    env,
    scope.db,
    scope.workspaceId,
    // Staff block time: a customer's hold made with the publishable key gives way.
    staffClaims([{ calendarId: stafferId, entries: [entry], checkConflicts: false }]),
    () => [...insertBlockedSpot(scope.db, row, entryRow(row, stafferId, entry))],
    deps.defer,
  );
  return row;
}
