import { eq, type SQL, sql } from "drizzle-orm";
import { idIn, insertRows, updateEach } from "../../db/bounded";
import { atVersion } from "../../db/guards";
import { bookingServices, bookings, events, messages, series } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";
import type { Statement } from "../../db/statement";
import type { BookingPatch, ServicePatch } from "./booking-change";
import { cancelRemindersWhere, reminderMoved } from "../../messages/queries/messages";
import { eventEffect, type EventType } from "../../webhooks/queries/outbox";
import { producing } from "../../db/effects";

/**
 * The condition a change of many bookings commits under: every one of them
 * still at the version read (one JSON parameter, whatever their number), and
 * the series at its own.
 */
export function allStillAsRead(
  read: readonly { id: string; version: number }[],
  seriesAt?: { id: string; version: number },
): SQL {
  const pairs = JSON.stringify(read.map((b) => [b.id, b.version]));
  // Parenthesised whole: a guard negates it (`not …`), which must cover every part.
  const bookingsAsRead = sql`not exists (select 1 from json_each(${pairs}) as j where not exists (select 1 from ${bookings} where ${bookings.id} = json_extract(j.value, '$[0]') and ${bookings.version} = json_extract(j.value, '$[1]')))`;
  return seriesAt
    ? sql`((${bookingsAsRead}) and ${atVersion(series, seriesAt.id, seriesAt.version)})`
    : sql`(${bookingsAsRead})`;
}

/** Each booking's own columns, versions bumped and last change `now`: one UPDATE per set of columns. */
export const updateBookings = (
  scope: Scope,
  patches: readonly ({ id: string } & BookingPatch)[],
  now: number,
): Statement[] =>
  updateEach(scope.db, bookings, patches, {
    where: (ids) => whereIn(scope, bookings, ids),
    also: { version: sql`${bookings.version} + 1`, updatedAt: now },
  });

export const updateBookedServices = (scope: Scope, patches: readonly ServicePatch[]): Statement[] =>
  updateEach(scope.db, bookingServices, patches, {
    where: (ids) => whereIn(scope, bookingServices, ids),
  });

/** The series was changed: its version moves, so a change that read it before loses. */
export const bumpSeries = (scope: Scope, seriesId: string, now: number) =>
  scope.db
    .update(series)
    .set({ version: sql`${series.version} + 1`, updatedAt: now })
    .where(whereIn(scope, series, eq(series.id, seriesId)));

/** Reminders still to go out of the canceled bookings: they never will. */
export const cancelRemindersOf = (scope: Scope, bookingIds: readonly string[]): Statement[] =>
  bookingIds.length === 0
    ? []
    : [cancelRemindersWhere(scope, idIn(messages.bookingId, bookingIds))];

/** Reminders re-timed and re-written, each by id (only those still scheduled move). */
export const moveReminders = (
  scope: Scope,
  moves: readonly {
    id: string;
    scheduledFor: number;
    subject: string | null;
    body: string;
    locale: string;
    status: "scheduled" | "canceled";
  }[],
): Statement[] => {
  const statements = updateEach(scope.db, messages, moves, {
    where: (ids) => whereIn(scope, messages, ids, eq(messages.status, "scheduled")),
  });
  // The batch commits whole: its first statement speaks for the reminders moved (earlier ones
  // bring the workspace's clock forward).
  const [first, ...rest] = statements;
  const effects = moves
    .filter((m) => m.status === "scheduled")
    .flatMap((m) => reminderMoved(scope, m.id, m.scheduledFor));
  return first ? [producing(first, effects), ...rest] : statements;
};

/** One outbox event per changed booking, in as few statements as their payloads allow. */
export const insertEvents = (
  scope: Scope,
  rows: readonly { type: EventType; payload: unknown }[],
  now: number,
): Statement[] => {
  const inserted = rows.map((r) => ({
    id: crypto.randomUUID(),
    workspaceId: scope.workspaceId,
    type: r.type,
    payload: r.payload,
    createdAt: now,
  }));
  // Every statement names all the rows: they commit in one batch, and the dispatch counts each once.
  const effects = inserted.map((r) => eventEffect(scope.workspaceId, r.id));
  return insertRows(scope.db, events, inserted).map((s) => producing(s, effects));
};
