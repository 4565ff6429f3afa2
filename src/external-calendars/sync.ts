import { removeExternalBusy, replaceExternalBusy } from "../calendar/external";
import { configOf } from "../platform/config";
import {
  type BusyPairs,
  confirmEtag,
  deleteExternalCalendar,
  type ExternalCalendarWithZone,
  getExternalCalendar,
  insertExternalCalendar,
  markSynced,
  saveBusy,
  stafferHome,
} from "./queries/external-calendars";
import type { ExternalCalendarRow } from "../db/schema";
import type { Scope } from "../db/scope";
import { IcsError, readBusy } from "./rules";
import type { Env } from "../platform/env";
import { ApiError, invalid, notFound } from "../platform/errors";
import { failpoint } from "../platform/failpoints";
import { log } from "../platform/log";
import { fetchCalendar } from "./fetch";
import { startRefresh, stopRefresh } from "./object/client";

export interface SyncDeps {
  scope: Scope;
  env: Env;
}

/** What an add or a sync answers: the calendar as it is now, and the bookings its busy time covers. */
export interface Synced {
  row: ExternalCalendarRow;
  conflicts: string[];
}

/**
 * External calendars one staffer may have: each may bring 5,000 busy intervals into the
 * staffer's calendar object and is fetched every 15 minutes.
 */
const MAX_EXTERNAL_CALENDARS = 10;

/**
 * What adding a calendar can be wrong about (422): a staffer who works at no location has no
 * zone; a staffer with the most calendars has no room for another.
 */
export type ExternalCalendarSubject = { is: "staffer" };

const full = () =>
  invalid<ExternalCalendarSubject>(
    { is: "staffer" },
    `The staffer has ${MAX_EXTERNAL_CALENDARS} external calendars, the most allowed; remove one first.`,
  );

/**
 * The ICS text as busy pairs for the next 180 days and the count of events left out, or 422
 * `calendar_invalid`. Whatever reading the text throws is the calendar's fault, never a 500:
 * the reader is pure (no I/O), so an error that is not one of its refusals (a stack or memory
 * limit, a bug of the parser on text nobody foresaw) is still about this text.
 */
function busyOf(text: string, zone: string, now: number): { busy: BusyPairs; skipped: number } {
  try {
    const reading = readBusy(text, { now, defaultZone: zone });
    return {
      busy: reading.busy.map((i) => [i.start, i.end] as const),
      skipped: reading.skipped,
    };
  } catch (error) {
    if (error instanceof IcsError) throw new ApiError("calendar_invalid", error.message);
    log("warn", "external calendar text could not be read", {
      error: error instanceof Error ? error.name : "unknown",
    });
    throw new ApiError("calendar_invalid", "The calendar could not be read.");
  }
}

const fetchOptions = (env: Env, etag: string | null) => {
  const config = configOf(env);
  return {
    etag,
    timeoutMs: config.externalCalendarTimeoutMs,
    allowPrivate: config.allowPrivateWebhooks,
  };
};

/**
 * Adds an ICS calendar to a staffer: fetched and read before anything is
 * written, so a calendar that cannot be fetched or read leaves nothing (422).
 * The refresh clock first (it stops itself at its first round if the row never
 * came), then D1 (the row and its busy time in one batch, without an ETag), then
 * the calendar object, then the ETag: an invocation stopped anywhere in between
 * leaves a row whose next round fetches the whole text and hands it over. If the
 * object's call fails, the row goes again.
 */
export async function addExternalCalendar(
  deps: SyncDeps,
  stafferId: string,
  input: { url: string; name?: string | undefined },
  now: number,
): Promise<Synced> {
  const { scope, env } = deps;
  const staffer = await stafferHome(scope, stafferId);
  if (!staffer.found) throw notFound("Staffer");
  if (!staffer.home) {
    throw invalid<ExternalCalendarSubject>(
      { is: "staffer" },
      "The staffer works at no location, so the calendar's times have no zone to be read in.",
    );
  }
  if (staffer.calendars >= MAX_EXTERNAL_CALENDARS) throw full();
  const fetched = await fetchCalendar(input.url, fetchOptions(env, null));
  if (!fetched.changed) throw new Error("a first fetch has no ETag to match");
  const { busy, skipped } = busyOf(fetched.text, staffer.home.zone, now);
  const row: ExternalCalendarRow = {
    id: crypto.randomUUID(),
    workspaceId: scope.workspaceId,
    stafferId,
    locationId: staffer.home.locationId,
    url: input.url,
    name: input.name ?? null,
    etag: null,
    status: "ok",
    lastSyncedAt: now,
    busyCount: busy.length,
    skippedEvents: skipped,
    seq: 1,
    createdAt: now,
  };
  await startRefresh(env, row.id);
  if (!(await insertExternalCalendar(scope, row, busy, MAX_EXTERNAL_CALENDARS))) {
    // The staffer was there a moment ago: either gone since, or another add took the last place.
    await stopRefresh(env, row.id).catch(() => undefined);
    const again = await stafferHome(scope, stafferId);
    throw again.found ? full() : notFound("Staffer");
  }
  // A test stops the invocation here: D1 has the row and its time, the object none of it.
  failpoint("external-calendars.handover", "add");
  try {
    const conflicts = await replaceExternalBusy(
      env,
      { workspaceId: scope.workspaceId, stafferId },
      row.id,
      1,
      busy,
    );
    await confirmEtag(scope, row.id, { seq: 1, etag: fetched.etag });
    return { row: { ...row, etag: fetched.etag }, conflicts };
  } catch (error) {
    await deleteExternalCalendar(scope, stafferId, row.id);
    await removeExternalBusy(env, { workspaceId: scope.workspaceId, stafferId }, row.id).catch(
      () => undefined,
    );
    await stopRefresh(env, row.id).catch(() => undefined);
    throw error;
  }
}

/**
 * Refetches a calendar now. A 304 keeps the busy time; a new text replaces it
 * as a whole (D1 in one batch, then the calendar object in one call). A fetch
 * or read that fails keeps the busy time as it was, records why in `status`
 * and answers 422 with that code.
 */
export async function syncExternalCalendar(
  deps: SyncDeps,
  stafferId: string,
  id: string,
  now: number,
): Promise<Synced> {
  const found = await getExternalCalendar(deps.scope, stafferId, id);
  if (!found) throw notFound("External calendar");
  return syncFound(deps, found, now);
}

/** The sync of a calendar already read (the alarm reads it by id alone). */
export async function syncFound(
  deps: SyncDeps,
  found: ExternalCalendarWithZone,
  now: number,
): Promise<Synced> {
  const { scope, env } = deps;
  const { row, zone } = found;
  let busy: BusyPairs;
  let skipped: number;
  let etag: string | null;
  try {
    const fetched = await fetchCalendar(row.url, fetchOptions(env, row.etag));
    if (!fetched.changed) {
      const kept = await markSynced(scope, row.id, { status: "ok", syncedAt: now });
      if (!kept) throw notFound("External calendar");
      return { row: kept, conflicts: [] };
    }
    ({ busy, skipped } = busyOf(fetched.text, zone, now));
    etag = fetched.etag;
  } catch (error) {
    if (error instanceof ApiError && error.code.startsWith("calendar_")) {
      await markSynced(scope, row.id, { status: error.code, syncedAt: now });
    }
    throw error;
  }
  // Saved without an ETag: it is recorded once the calendar object holds this time, so a sync
  // stopped before that fetches the whole text again (no 304) and hands it over.
  const saved = await saveBusy(scope, row.id, { etag: null, syncedAt: now, busy, skipped });
  if (!saved) throw notFound("External calendar");
  // A test stops the invocation here: D1 has the new time, the object the old.
  failpoint("external-calendars.handover", "sync");
  const conflicts = await replaceExternalBusy(
    env,
    { workspaceId: saved.workspaceId, stafferId: saved.stafferId },
    saved.id,
    saved.seq,
    busy,
  );
  await confirmEtag(scope, saved.id, { seq: saved.seq, etag });
  return { row: { ...saved, etag }, conflicts };
}

/** Removes the calendar: D1 first (a failure there keeps everything), then the calendar object. */
export async function removeExternalCalendar(
  deps: SyncDeps,
  stafferId: string,
  id: string,
): Promise<void> {
  const { scope, env } = deps;
  const removed = await deleteExternalCalendar(scope, stafferId, id);
  if (!removed) throw notFound("External calendar");
  await removeExternalBusy(env, { workspaceId: scope.workspaceId, stafferId }, id);
  await stopRefresh(env, id);
}
