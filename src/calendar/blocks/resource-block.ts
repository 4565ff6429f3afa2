import { commitWithClaims, type Defer, staffClaims } from "../client";
import { entryRow } from "../entry-rows";
import { unitCalendarId } from "../ids";
import { insertRows } from "../../db/bounded";
import { findResource } from "../../catalogue/queries/resources";
import { calendarEntries, type resourceBlocks } from "../../db/schema";
import { insertResourceBlock } from "../queries/blocks";
import type { Scope } from "../../db/scope";
import type { Env } from "../../platform/env";
import { invalid, notFound } from "../../platform/errors";

export interface BlockResourceInput {
  resourceId: string;
  /** 1 … quantity; omitted: every unit. */
  unit?: number | undefined;
  /** Epoch ms. */
  startsAt: number;
  endsAt: number;
  comment?: string | undefined;
}

export type ResourceBlockRow = typeof resourceBlocks.$inferSelect;

/** What a resource block can be wrong about (422): a unit the resource does not have. */
export type BlockResourceSubject = { is: "unit" };

/**
 * Takes a resource out of use for a while (maintenance): one unit, or all of
 * them. Each unit is a calendar of its own, so the block is one claim per unit
 * through one `commitWithClaims`, and one `calendar_entries` row per unit in
 * the same batch as the block. Like a staffer's blocked spot it may lie over
 * bookings (they stay), never over a live reservation (409 slot_unavailable).
 */
export async function blockResourceTime(
  deps: { scope: Scope; env: Env; defer?: Defer },
  input: BlockResourceInput,
): Promise<ResourceBlockRow> {
  const { scope, env } = deps;
  const resource = await findResource(scope, input.resourceId);
  if (!resource) throw notFound("Resource");
  if (input.unit !== undefined && input.unit > resource.quantity) {
    throw invalid(
      { is: "unit" },
      `The resource has ${resource.quantity} unit${resource.quantity === 1 ? "" : "s"}.`,
    );
  }

  const row: ResourceBlockRow = {
    id: crypto.randomUUID(),
    workspaceId: scope.workspaceId,
    resourceId: resource.id,
    unit: input.unit ?? null,
    startsAt: input.startsAt,
    endsAt: input.endsAt,
    comment: input.comment ?? null,
    createdAt: Date.now(),
  };
  const units =
    input.unit !== undefined
      ? [input.unit]
      : Array.from({ length: resource.quantity }, (_, i) => i + 1);
  // One entry per unit: entry ids are the calendars' primary keys, the block is their source.
  const perUnit = units.map((unit) => ({
    unit,
    entry: {
      id: crypto.randomUUID(),
      kind: "blocked" as const,
      source: row.id,
      start: row.startsAt,
      end: row.endsAt,
    },
  }));

  await commitWithClaims(
    env,
    scope.db,
    scope.workspaceId,
    // Maintenance is staff's call: a customer's hold made with the publishable key gives way.
    staffClaims(
      perUnit.map(({ unit, entry }) => ({
        calendarId: unitCalendarId(resource.id, unit),
        entries: [entry],
        checkConflicts: false,
      })),
    ),
    () => [
      insertResourceBlock(scope.db, row),
      // Up to 50 units: chunked under D1's parameter limit, still one transaction.
      ...insertRows(
        scope.db,
        calendarEntries,
        perUnit.map(({ unit, entry }) =>
          entryRow(resource, unitCalendarId(resource.id, unit), entry),
        ),
      ),
    ],
    deps.defer,
  );
  return row;
}
