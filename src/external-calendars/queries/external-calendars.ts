import { and, asc, count, eq, type SQL, sql } from "drizzle-orm";
import type { PageRequest } from "../../platform/pagination";
import {
  calendarEntries,
  externalCalendars,
  locations,
  stafferLocations,
  staffers,
} from "../../db/schema";
import type { ExternalCalendarRow } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";
import { producing } from "../../db/effects";
import { freedByDelete, freedEffects } from "../../db/queries/freed-time";

/** Busy intervals as the sync hands them to D1 and the calendar object: `[start, end]` epoch ms. */
export type BusyPairs = readonly (readonly [number, number])[];

/** The id of an external busy interval, on both sides (D1 computes the same string). */
export const externalEntryId = (calendarId: string, start: number) => `${calendarId}:${start}`;

/**
 * Whether the workspace has the staffer, and their first location (by
 * creation): its zone reads the calendar's floating times and all-day events.
 */
export async function stafferHome(scope: Scope, stafferId: string) {
  const { db } = scope;
  const [found, home, calendars] = await db.batch([
    db
      .select({ id: staffers.id })
      .from(staffers)
      .where(whereIn(scope, staffers, eq(staffers.id, stafferId))),
    db
      .select({ locationId: locations.id, zone: locations.timezone })
      .from(stafferLocations)
      .innerJoin(locations, eq(locations.id, stafferLocations.locationId))
      .where(whereIn(scope, stafferLocations, eq(stafferLocations.stafferId, stafferId)))
      .orderBy(asc(locations.createdAt), asc(locations.id))
      .limit(1),
    db
      .select({ n: count() })
      .from(externalCalendars)
      .where(whereIn(scope, externalCalendars, eq(externalCalendars.stafferId, stafferId))),
  ]);
  return { found: found.length > 0, home: home[0] ?? null, calendars: calendars[0]?.n ?? 0 };
}

const ofStaffer = (scope: Scope, stafferId: string, id: string) =>
  whereIn(
    scope,
    externalCalendars,
    eq(externalCalendars.stafferId, stafferId),
    eq(externalCalendars.id, id),
  );

/** An external calendar with the zone of its location (the sync reads the ICS text in it). */
export interface ExternalCalendarWithZone {
  row: ExternalCalendarRow;
  zone: string;
}

const withZone = (db: Scope["db"]) =>
  db
    .select({ row: externalCalendars, zone: locations.timezone })
    .from(externalCalendars)
    .innerJoin(locations, eq(locations.id, externalCalendars.locationId));

export async function getExternalCalendar(
  scope: Scope,
  stafferId: string,
  id: string,
): Promise<ExternalCalendarWithZone | undefined> {
  const [found] = await withZone(scope.db).where(ofStaffer(scope, stafferId, id));
  return found;
}

/** An external calendar by id alone, in any workspace (the refresh alarm knows only the id). */
export async function externalCalendarById(
  db: Scope["db"],
  id: string,
): Promise<ExternalCalendarWithZone | undefined> {
  const [found] = await withZone(db).where(eq(externalCalendars.id, id));
  return found;
}

/**
 * A page of the staffer's external calendars and their total, with whether
 * the workspace has the staffer, in one round trip.
 */
export async function listExternalCalendars(scope: Scope, stafferId: string, page: PageRequest) {
  const { db } = scope;
  const where = whereIn(scope, externalCalendars, eq(externalCalendars.stafferId, stafferId));
  const [found, totals, rows] = await db.batch([
    db
      .select({ id: staffers.id })
      .from(staffers)
      .where(whereIn(scope, staffers, eq(staffers.id, stafferId))),
    db.select({ total: count() }).from(externalCalendars).where(where),
    db
      .select()
      .from(externalCalendars)
      .where(where)
      .orderBy(asc(externalCalendars.createdAt), asc(externalCalendars.id))
      .limit(page.perPage)
      .offset(page.offset),
  ]);
  return { found: found.length > 0, rows, total: totals[0]?.total ?? 0 };
}

/**
 * The calendar's busy time becomes exactly `busy`, in one batch with the row's
 * new state and `seq` (+1). The entries are inserted from the row itself, so a
 * sync that lost the race with a delete writes nothing. Returns the row as
 * written, or undefined when it is gone.
 */
export async function saveBusy(
  scope: Scope,
  id: string,
  state: { etag: string | null; syncedAt: number; busy: BusyPairs; skipped: number },
): Promise<ExternalCalendarRow | undefined> {
  const { db, workspaceId } = scope;
  const [updated] = await db.batch([
    db
      .update(externalCalendars)
      .set({
        etag: state.etag,
        status: "ok",
        lastSyncedAt: state.syncedAt,
        busyCount: state.busy.length,
        skippedEvents: state.skipped,
        seq: sql`${externalCalendars.seq} + 1`,
      })
      .where(and(eq(externalCalendars.id, id), eq(externalCalendars.workspaceId, workspaceId)))
      .returning(),
    // Every busy entry goes and the fetched ones come back: the trigger records what went as
    // freed (when someone waits), and so does the statement's answer.
    producing(
      db.delete(calendarEntries).where(externalEntriesOf(workspaceId, id)).returning(freedByDelete),
      freedEffects,
    ),
    insertBusy(scope, id, state.busy),
  ]);
  return updated[0];
}

/** The busy entries an external calendar put in (and any further condition on them). */
const externalEntriesOf = (workspaceId: string, id: string, ...more: SQL[]) =>
  and(
    eq(calendarEntries.sourceId, id),
    eq(calendarEntries.kind, "external"),
    eq(calendarEntries.workspaceId, workspaceId),
    ...more,
  );

/** The busy rows of one external calendar, from its row (none when the row is not there). */
function insertBusy(scope: Scope, id: string, busy: BusyPairs) {
  const { db, workspaceId } = scope;
  // Columns in table order (the session columns last: no session); `where true` is not needed (no upsert), the join filters the row.
  return db
    .insert(calendarEntries)
    .select(
      sql`select x.id || ':' || json_extract(j.value, '$[0]'), x.workspace_id, x.staffer_id, null, null, x.location_id, 'external', x.id, json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]'), null, 0, null, 1, null from ${externalCalendars} x, json_each(${JSON.stringify(busy)}) j where x.id = ${id} and x.workspace_id = ${workspaceId}`,
    );
}

/**
 * A new external calendar with its first busy time, in one batch; its row is
 * written only when the workspace still has the staffer and the staffer has
 * fewer than `max` calendars (checked in the statement: two adds racing for
 * the last place cannot both get it).
 */
export async function insertExternalCalendar(
  scope: Scope,
  row: ExternalCalendarRow,
  busy: BusyPairs,
  max: number,
): Promise<boolean> {
  const { db } = scope;
  const [inserted] = await db.batch([
    db
      .insert(externalCalendars)
      .select(
        db
          .select({
            id: sql<string>`${row.id}`.as("id"),
            workspaceId: staffers.workspaceId,
            stafferId: staffers.id,
            locationId: sql<string>`${row.locationId}`.as("location_id"),
            url: sql<string>`${row.url}`.as("url"),
            name: sql<string | null>`${row.name}`.as("name"),
            etag: sql<string | null>`${row.etag}`.as("etag"),
            status: sql<string>`${row.status}`.as("status"),
            lastSyncedAt: sql<number>`${row.lastSyncedAt}`.as("last_synced_at"),
            busyCount: sql<number>`${row.busyCount}`.as("busy_count"),
            skippedEvents: sql<number>`${row.skippedEvents}`.as("skipped_events"),
            seq: sql<number>`${row.seq}`.as("seq"),
            createdAt: sql<number>`${row.createdAt}`.as("created_at"),
          })
          .from(staffers)
          .where(
            whereIn(
              scope,
              staffers,
              eq(staffers.id, row.stafferId),
              sql`(select count(*) from ${externalCalendars} where ${externalCalendars.stafferId} = ${row.stafferId}) < ${max}`,
            ),
          ),
      )
      .returning({ id: externalCalendars.id }),
    insertBusy(scope, row.id, busy),
  ]);
  return inserted.length > 0;
}

/** A sync that changed no busy time (304, or a failure): only the row's state moves. */
export async function markSynced(
  scope: Scope,
  id: string,
  state: { status: string; syncedAt: number },
): Promise<ExternalCalendarRow | undefined> {
  const [row] = await scope.db
    .update(externalCalendars)
    .set({
      status: state.status,
      lastSyncedAt: state.syncedAt,
    })
    .where(and(eq(externalCalendars.id, id), eq(externalCalendars.workspaceId, scope.workspaceId)))
    .returning();
  return row;
}

/**
 * Records the ETag of the text whose busy time the calendar object now holds: only once the
 * object confirmed it (D1 alone having it would let every later 304 keep the object stale).
 * Only if no newer sync has saved other time since (`seq`).
 */
export async function confirmEtag(
  scope: Scope,
  id: string,
  state: { seq: number; etag: string | null },
): Promise<void> {
  await scope.db
    .update(externalCalendars)
    .set({ etag: state.etag })
    .where(
      and(
        eq(externalCalendars.id, id),
        eq(externalCalendars.workspaceId, scope.workspaceId),
        eq(externalCalendars.seq, state.seq),
      ),
    );
}

/** Removes the calendar and its busy time in one batch; the row as it was, or undefined. */
export async function deleteExternalCalendar(
  scope: Scope,
  stafferId: string,
  id: string,
): Promise<ExternalCalendarRow | undefined> {
  const { db, workspaceId } = scope;
  const [, deleted] = await db.batch([
    producing(
      db
        .delete(calendarEntries)
        .where(externalEntriesOf(workspaceId, id, eq(calendarEntries.stafferId, stafferId)))
        .returning(freedByDelete),
      freedEffects,
    ),
    db
      .delete(externalCalendars)
      .where(ofStaffer(scope, stafferId, id))
      .returning(),
  ]);
  return deleted[0];
}
