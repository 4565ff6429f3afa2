import { type PlannedWrite, staffClaims } from "../calendar/client";
import { replaceBusyTime } from "./queries/booking-change";
import type { LoadedBooking } from "./queries/bookings";
import type { ChangeMessagesContext } from "../messages/queries/messages";
import {
  allStillAsRead,
  bumpSeries,
  insertEvents,
  updateBookedServices,
  updateBookings,
} from "./queries/series-change";
import { guard } from "../db/guards";
import type { Statement } from "../db/statement";
import { renderBooking } from "./views/booking";
import type { Booking } from "./views/booking-schema";
import { busyMoves } from "../calendar/planning/busy-moves";
import { movingClaims } from "../calendar/planning/calendar-entries";
import type { BookingChange } from "./change-value";
import { changedRecord } from "./change-write";
import type { BookingDeps } from "./deps";
import { manyMessages } from "./messages-many";
import { noneHeld, type HeldCredits } from "../packages/queries/booking-holds";
import { creditStatements } from "./credit-ends";

/** One booking of a change of many, and what its plan made of it. */
export interface PlannedChange {
  loaded: LoadedBooking;
  change: BookingChange;
}

/** The record the bookings belong to (a series), at the version read: guarded and bumped. */
export interface Enclosing {
  id: string;
  version: number;
}

/**
 * What the runner sends for a change of many bookings, from each booking's
 * `BookingChange`: the claims of all their moving busy time grouped into one
 * claim per calendar (one calendar call per calendar, not per booking), and
 * one batch whose size does not grow with the number of bookings: one guard
 * over every booking's version and the series', one UPDATE per set of
 * columns for the bookings and for their services (`updateEach`), their busy
 * time, the customer's messages, one outbox event per booking, and the
 * series' version bump. Order and money changes are not part of it (a series
 * change has none); a plan that makes one is a bug.
 */
export function changesWrite(
  deps: BookingDeps,
  planned: readonly PlannedChange[],
  enclosing: Enclosing,
  now: number,
  told: ChangeMessagesContext | null,
  creditHolds: HeldCredits = noneHeld,
): PlannedWrite<Booking[]> {
  const { scope } = deps;
  for (const { change } of planned) {
    if (change.order || change.payment || change.status)
      throw new Error("a change of many bookings moves no order, money or status");
    if (change.messages && !told)
      throw new Error("a change that tells the customer must be read with `notifies`");
  }
  const records = planned.map(({ loaded, change }) => changedRecord(loaded, change, now));
  const values = records.map((record) => renderBooking(record, deps.render));
  const moves = planned.map(({ loaded, change }) => busyMoves(loaded.entries, change.busy));
  const removed = moves.flatMap((m) => m.removed);
  const added = moves.flatMap((m) => m.added);
  const build = (): Statement[] => [
    guard(
      scope,
      allStillAsRead(
        planned.map((p) => p.loaded.booking),
        enclosing,
      ),
    ),
    ...updateBookings(
      scope,
      planned.map(({ loaded, change }) => ({ id: loaded.booking.id, ...change.booking })),
      now,
    ),
    ...updateBookedServices(
      scope,
      planned.flatMap(({ change }) => change.services ?? []),
    ),
    ...replaceBusyTime(scope, { removed, added }),
    // Each booking's credits: a cancelled occurrence gives back (or uses) what it held.
    ...creditStatements(scope, creditHolds, planned, now),
    ...(told ? manyMessages(deps, planned, records, told, now) : []),
    ...insertEvents(
      scope,
      planned.map(({ change }, i) => ({ type: change.event, payload: values[i] })),
      now,
    ),
    bumpSeries(scope, enclosing.id, now),
  ];
  return {
    claims: staffClaims(movingClaims(removed, added), deps.staff),
    build,
    value: values,
  };
}
