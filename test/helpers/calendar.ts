import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, vi } from "vitest";
import { calendarFor } from "../../src/calendar/client";
import { unitCalendarId } from "../../src/calendar/ids";
import { adminDirect } from "./direct";
import { everyShard } from "./every-shard";

/** The management API's audit of one staffer's calendar object against D1 (checked, not under test). */
export async function audit(workspaceId: string, stafferId: string) {
  const res = await adminDirect(`/workspaces/${workspaceId}/staffers/${stafferId}/calendar`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as {
    in_sync: boolean;
    only_in_calendar: unknown[];
    only_in_d1: unknown[];
  };
}

/**
 * Every listed staffer's calendar holds exactly D1's busy time. A write
 * confirms its calendars once its answer is out, so the check allows the
 * confirms a moment to land (far less than a hold's 30 s lease: a calendar
 * that is wrong stays wrong, and fails here).
 */
export async function expectInSync(workspaceId: string, stafferIds: string[]) {
  for (const stafferId of stafferIds) {
    await vi.waitFor(
      async () => {
        const result = await audit(workspaceId, stafferId);
        expect(result, `calendar of ${stafferId}`).toEqual({
          in_sync: true,
          only_in_calendar: [],
          only_in_d1: [],
        });
      },
      { timeout: 3_000, interval: 50 },
    );
  }
}

/** Lets every hold of these calendars expire now and runs their alarms (instead of waiting 30 s). */
export async function expireHolds(workspaceId: string, stafferIds: string[]) {
  for (const stafferId of stafferIds) {
    const stub = calendarFor(env, workspaceId, stafferId);
    await runInDurableObject(stub, (_instance, state) => {
      state.storage.sql.exec("UPDATE holds SET expires_at = 0");
    });
    await runDurableObjectAlarm(stub);
  }
}

export interface LiveInterval {
  booking_id: string;
  staffer_id: string;
  starts_at: number;
  ends_at: number;
}

/** Busy time of live (not canceled) bookings, with buffers, straight from booking_services. */
export async function liveIntervals(workspaceId: string): Promise<LiveInterval[]> {
  const res = await everyShard
    .prepare(
      `select b.id as booking_id, bs.staffer_id, bs.reserved_on as starts_at,
            bs.reserved_until + bs.buffer * 60000 as ends_at
       from booking_services bs join bookings b on b.id = bs.booking_id
      where b.workspace_id = ? and b.is_canceled = 0`,
    )
    .bind(workspaceId)
    .all<LiveInterval>();
  return res.results;
}

export function overlaps(rows: LiveInterval[]): [LiveInterval, LiveInterval][] {
  const found: [LiveInterval, LiveInterval][] = [];
  const sorted = [...rows].sort((a, b) =>
    a.staffer_id === b.staffer_id
      ? a.starts_at - b.starts_at
      : a.staffer_id < b.staffer_id
        ? -1
        : 1,
  );
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length; j++) {
      const a = sorted[i];
      const b = sorted[j];
      if (!a || !b || a.staffer_id !== b.staffer_id || b.starts_at >= a.ends_at) break;
      found.push([a, b]);
    }
  }
  return found;
}

/** D1's calendar rows for one source: must equal its live services' time (none once canceled). */
export async function entriesOf(sourceId: string) {
  const res = await everyShard
    .prepare(
      "select staffer_id, starts_at, ends_at from calendar_entries where source_id = ? order by staffer_id, starts_at",
    )
    .bind(sourceId)
    .all<{ staffer_id: string; starts_at: number; ends_at: number }>();
  return res.results;
}

/** Every unit calendar of these resources holds exactly D1's busy time (after the confirms land). */
export async function expectUnitsInSync(
  workspaceId: string,
  resources: { uuid: string; quantity: number }[],
) {
  for (const resource of resources) {
    for (let unit = 1; unit <= resource.quantity; unit++) {
      const calendarId = unitCalendarId(resource.uuid, unit);
      await vi.waitFor(
        async () => {
          const result = await calendarFor(env, workspaceId, calendarId).audit(
            workspaceId,
            calendarId,
          );
          expect(result, `calendar of ${calendarId}`).toEqual({
            in_sync: true,
            only_in_calendar: [],
            only_in_d1: [],
          });
        },
        { timeout: 3_000, interval: 50 },
      );
    }
  }
}

export interface UnitInterval {
  source_id: string;
  resource_id: string;
  unit: number;
  kind: string;
  starts_at: number;
  ends_at: number;
}

/** Pairs of unexpired entries of one resource unit that overlap (booked, blocked or held). */
export async function unitOverlaps(workspaceId: string): Promise<[UnitInterval, UnitInterval][]> {
  const { results } = await everyShard
    .prepare(
      `select source_id, resource_id, unit, kind, starts_at, ends_at from calendar_entries
      where workspace_id = ? and resource_id is not null and kind != 'blocked'
        and (expires_at is null or expires_at > ?)
      order by resource_id, unit, starts_at`,
    )
    .bind(workspaceId, Date.now())
    .all<UnitInterval>();
  const found: [UnitInterval, UnitInterval][] = [];
  for (let i = 0; i < results.length; i++) {
    for (let j = i + 1; j < results.length; j++) {
      const a = results[i];
      const b = results[j];
      if (!a || !b || a.resource_id !== b.resource_id || a.unit !== b.unit) break;
      if (b.starts_at >= a.ends_at) break;
      found.push([a, b]);
    }
  }
  return found;
}
