import type { Env } from "../platform/env";
import { calendarFor } from "./client";

/** `[start, end]` pairs, flattened for the call (5,000 intervals are 10,000 numbers, ~100 KB). */
const flatten = (busy: readonly (readonly [number, number])[]) => busy.flat();

/**
 * Hands one external calendar's whole busy time to the staffer's calendar
 * object in one call (`Calendar.replaceExternal`); `seq` is the sync's number
 * in D1, which was written first. The bookings the time covers come back.
 */
export async function replaceExternalBusy(
  env: Env,
  owner: { workspaceId: string; stafferId: string },
  source: string,
  seq: number,
  busy: readonly (readonly [number, number])[],
): Promise<string[]> {
  const stub = calendarFor(env, owner.workspaceId, owner.stafferId);
  const result = await stub.replaceExternal(
    { workspaceId: owner.workspaceId, calendarId: owner.stafferId },
    source,
    seq,
    flatten(busy),
  );
  return result.conflicts;
}

/** The external calendar is gone from D1: its time leaves the calendar object. */
export async function removeExternalBusy(
  env: Env,
  owner: { workspaceId: string; stafferId: string },
  source: string,
): Promise<void> {
  await calendarFor(env, owner.workspaceId, owner.stafferId).removeExternal(source);
}
