import { and, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { commitPlanned, type CalendarClaim, staffClaims } from "../calendar/client";
import { runBatch } from "../db/client";
import { isGuardFailure } from "../db/constraints";
import { atVersion, guard } from "../db/guards";
import { type LoadedBooking, loadBookingWith, type Referenced } from "../db/queries/bookings";
import { type EventType, eventStatement } from "../db/queries/outbox";
import { bookings, orders } from "../db/schema";
import { type Scope, whereIn } from "../db/scope";
import { allows, type Operation } from "../domain/booking-rules";
import type { Env } from "../env";
import { ApiError, notFound, RecordChangedError } from "../lib/errors";
import { probe, rendezvous } from "../lib/failpoints";
import { type BookingView, renderBooking } from "../views/booking";
import type { Booking } from "../views/booking-schema";
import type { BusyInterval } from "../domain/availability";
import { ClaimRetries } from "./claim-retries";
import { type PlanIds, stableIds } from "./plan-ids";
import type { BookingDeps } from "./deps";

/** What a lifecycle operation wants to write, planned from the booking as read. */
export interface BookingChange {
  /** The booking as it will be once the change is written. */
  view: BookingView;
  event: EventType;
  statements: BatchItem<"sqlite">[];
  /** Calendars to claim when busy time moves, is reassigned or freed. */
  claims?: CalendarClaim[];
  /** The change also writes the booking's order (money, totals): compare-and-set it too. */
  touchesOrder?: boolean;
}

export interface Planning<A = undefined> {
  scope: Scope;
  env: Env;
  now: number;
  /** What `alongside` read in the booking's own batch. */
  alongside: A;
  /** Time calendars refused to this change since it read D1, per calendar: plan around it. */
  taken: ReadonlyMap<string, BusyInterval[]>;
  /** Ids of new entries, the same in every plan of this read (a replan keeps granted claims). */
  ids: PlanIds;
}

/**
 * Reads a change needs besides the booking (its availability), run in the
 * booking's own batch through subqueries on the booking: one round trip, one
 * snapshot, so what the plan sees of both is consistent.
 */
export interface Alongside<A> {
  reads: (scope: Scope) => readonly BatchItem<"sqlite">[];
  read: (rows: unknown[]) => A;
}

/** Pause before the one retry, so the write that won can confirm its calendars first. */
const RETRY_PAUSE_MS = 40;

const changed = () =>
  new ApiError(
    "booking_changed",
    "The booking was changed by another request at the same moment; reload it and try again.",
  );

/**
 * Runs one change to a booking so that two concurrent changes end as some
 * sequential order of the two would: the write commits only if the booking
 * (and its order, when touched) is still at the version it read, and bumps
 * it. The loser releases its holds, replans once on fresh state (where it may
 * find the booking closed), and otherwise answers 409 `booking_changed`.
 */
export async function changeBooking<A = undefined>(
  deps: BookingDeps,
  bookingId: string,
  op: Operation,
  plan: (loaded: LoadedBooking, planning: Planning<A>) => Promise<BookingChange | null>,
  ref: Referenced = {},
  alongside?: Alongside<A>,
): Promise<Booking> {
  const { scope, env } = deps;
  const render = (view: BookingView) => renderBooking(view, deps.render);
  for (let attempt = 1; ; attempt++) {
    // What calendars refused is known for this read only: a fresh read starts afresh.
    const taken = new Map<string, BusyInterval[]>();
    const retries = new ClaimRetries((id) => {
      const busy = taken.get(id) ?? [];
      taken.set(id, busy);
      return busy;
    });
    const { loaded, rows } = await loadBookingWith(
      scope,
      bookingId,
      ref,
      alongside?.reads(scope) ?? [],
    );
    if (!loaded) throw notFound("Booking");
    // Replacing a service has its own conflict code for every unmet condition, openness included.
    if (op !== "replace_service" && !allows(loaded.booking, op)) {
      throw new ApiError(
        "booking_closed",
        "The booking is completed or canceled; it can no longer be changed that way.",
      );
    }
    const read = (alongside ? alongside.read(rows) : undefined) as A;
    const ids = stableIds();
    const planning = () => ({ scope, env, now: Date.now(), alongside: read, taken, ids });
    const firstPlanning = planning();
    const change = await plan(loaded, firstPlanning);
    if (!change) return render(loaded);
    const write = (change: BookingChange, now: number) => {
      const rendered = render(change.view);
      const build = (): BatchItem<"sqlite">[] => [
        guard(
          scope,
          and(
            atVersion(bookings, bookingId, loaded.booking.version),
            change.touchesOrder
              ? atVersion(orders, loaded.order.id, loaded.order.version)
              : undefined,
          ) ?? sql`1`,
        ),
        ...change.statements,
        ...bumpVersions(scope, bookingId, change.touchesOrder ? loaded.order.id : null, now),
        eventStatement(scope.db, scope.workspaceId, change.event, rendered),
      ];
      return { claims: staffClaims(change.claims ?? [], deps.staff), build, value: rendered };
    };
    await rendezvous("booking.change.before_write");
    try {
      const first = write(change, firstPlanning.now);
      if (first.claims.length === 0) {
        await runBatch(scope.db, first.build());
        return first.value;
      }
      // A unit or staffer another write won is noted taken and the change planned again on
      // the same read; the calendars that granted their part keep it.
      return await commitPlanned(env, scope.db, scope.workspaceId, first, deps.defer, {
        plan: async () => {
          const again = planning();
          const next = await plan(loaded, again);
          if (!next?.claims?.length) throw new Error("the change no longer moves busy time");
          return write(next, again.now);
        },
        replan: (refusal) => retries.learn(refusal),
      });
    } catch (error) {
      if (!isGuardFailure(error) && !(error instanceof RecordChangedError)) throw error;
      if (isGuardFailure(error)) probe("booking.guard_refused");
      if (attempt >= 2) throw changed();
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
    }
  }
}

/** Every change moves the booking's version and its last change (the .ics export shows both). */
function bumpVersions(scope: Scope, bookingId: string, orderId: string | null, now: number) {
  const { db } = scope;
  const statements: BatchItem<"sqlite">[] = [
    db
      .update(bookings)
      .set({ version: sql`${bookings.version} + 1`, updatedAt: now })
      .where(whereIn(scope, bookings, eq(bookings.id, bookingId))),
  ];
  if (orderId) {
    statements.push(
      db
        .update(orders)
        .set({ version: sql`${orders.version} + 1` })
        .where(whereIn(scope, orders, eq(orders.id, orderId))),
    );
  }
  return statements;
}
