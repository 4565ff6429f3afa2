import { type ConflictQuery, withAlternatives } from "../calendar/availability/alternatives";
import { commitPlanned, type PlannedWrite } from "../calendar/client";
import { attempt } from "../db/attempts";
import { runBatch } from "../db/client";
import { isGuardFailure } from "../db/constraints";
import { bookingRead, type LoadedBooking, type Referenced } from "./queries/bookings";
import { type ChangeMessagesContext, changeMessagesRead } from "../messages/queries/messages";
import { nothing, type ReadsOf, readTogether } from "../db/reads";
import type { BusyInterval } from "../calendar/rules";
import { allows, type Operation } from "./rules/booking-rules";
import { ApiError, notFound, RecordChangedError } from "../platform/errors";
import { rendezvous } from "../platform/failpoints";
import { renderBooking } from "./views/booking";
import type { Booking } from "./views/booking-schema";
import type { BookingChange } from "./change-value";
import { changeWrite } from "./change-write";
import { ClaimRetries } from "../calendar/planning/claim-retries";
import type { BookingDeps } from "./deps";
import { type HeldCredits, heldCreditsRead } from "../packages/queries/booking-holds";
import { type PlanIds, stableIds } from "../calendar/planning/plan-ids";

/** What a plan sees besides the booking: the time, its own reads, what calendars refused. */
export interface Planning<R> {
  now: number;
  /** What the operation read beside the booking, in the booking's own batch. */
  reads: R;
  /** What the attempt that lost to another change read (on the one retry); absent at first. */
  previous: R | undefined;
  /** Time calendars refused to this change since it read D1, per calendar: plan around it. */
  taken: ReadonlyMap<string, BusyInterval[]>;
  /** Ids of new entries, the same in every plan of this read (a replan keeps granted claims). */
  ids: PlanIds;
  /** A staff write: a publishable key's hold in its way gives way. */
  staff: boolean;
  /** The package credits the booking (or series) holds, read with it. */
  creditHolds: HeldCredits;
}

/** One kind of change to a booking, as the runner takes it. */
export type BookingOperation<R = undefined> = ReadsOf<R> & {
  op: Operation;
  /** Records the request names (a staffer, a status, an account), read with the booking. */
  refs?: Referenced;
  /**
   * The change as a value, from what was read alone; null when nothing
   * changes. Throws the reason the change is refused.
   */
  plan: (loaded: LoadedBooking, planning: Planning<R>) => BookingChange | null;
  /** The change may tell the customer (`messages`): what that needs is read with the booking. */
  notifies?: boolean;
  /** Where a taken time looks for nearby free starts (409 with `alternatives`). */
  alternatives?: (loaded: LoadedBooking) => ConflictQuery;
};

/** Pause before the one retry, so the write that won can confirm its calendars first. */
const RETRY_PAUSE_MS = 40;

const changed = () =>
  new ApiError(
    "booking_changed",
    "The booking was changed by another request at the same moment; reload it and try again.",
  );

const closed = () =>
  new ApiError(
    "booking_closed",
    "The booking is completed or canceled; it can no longer be changed that way.",
  );

/**
 * Runs one change to a booking so that two concurrent changes end as some
 * sequential order of the two would: the write commits only if the booking
 * (and its order, when the change writes it) is still at the version it read.
 * The loser releases its holds, reads again and plans once more (where it may
 * find the booking closed), and otherwise answers 409 `booking_changed`.
 */
export function changeBooking<R = undefined>(
  deps: BookingDeps,
  bookingId: string,
  operation: BookingOperation<R>,
): Promise<Booking> {
  const { scope } = deps;
  let counted = deps.staff;
  return attempt({
    name: "booking",
    pauseMs: RETRY_PAUSE_MS,
    read: async () => {
      const read = await readTogether(scope.db, {
        loaded: bookingRead(scope, bookingId, operation.refs),
        creditHolds: heldCreditsRead(scope, [bookingId]),
        reads: operation.reads?.(scope) ?? nothing(undefined as R),
        told: operation.notifies
          ? changeMessagesRead(scope, bookingId)
          : nothing<ChangeMessagesContext | null>(null),
      });
      if (!read.loaded) throw notFound("Booking");
      deps.link?.(read.loaded.booking);
      // Replacing a service has its own conflict code for every unmet condition, openness included.
      if (operation.op !== "replace_service" && !allows(read.loaded.booking, operation.op))
        throw closed();
      // A customer's change may message them: each counts against the booking (once, not per read).
      if (!counted) {
        counted = true;
        await deps.limitCustomerChange(bookingId);
      }
      return {
        loaded: read.loaded,
        reads: read.reads,
        told: read.told,
        creditHolds: read.creditHolds,
      };
    },
    attempt: async (read, previous) => {
      try {
        return await commitChange(deps, operation, read, previous?.reads);
      } catch (error) {
        throw await withAlternatives(scope, error, operation.alternatives?.(read.loaded));
      }
    },
    lost: (error) => isGuardFailure(error) || error instanceof RecordChangedError,
    gaveUp: changed,
  });
}

/**
 * Plans on one read and writes: the claims first when busy time moves (a
 * calendar that refuses a staffer or unit another write won has the change
 * planned again on the same read, the granted claims kept), then one batch.
 */
async function commitChange<R>(
  deps: BookingDeps,
  operation: BookingOperation<R>,
  {
    loaded,
    reads,
    told,
    creditHolds,
  }: {
    loaded: LoadedBooking;
    reads: R;
    told: ChangeMessagesContext | null;
    creditHolds: HeldCredits;
  },
  previous: R | undefined,
): Promise<Booking> {
  const { taken, write } = claimedWrites(deps);
  const ids = stableIds();
  const plan = () => {
    const now = Date.now();
    const planning = { now, reads, previous, taken, ids, staff: deps.staff, creditHolds };
    const change = operation.plan(loaded, planning);
    return change && changeWrite(deps, loaded, change, now, told, creditHolds);
  };
  const first = plan();
  if (!first) return renderBooking(loaded, deps.render);
  return write(first, plan);
}

/**
 * What the plans on one read share (a single booking's change or a series'):
 * the busy time calendars refused (known for this read only: a fresh read
 * starts afresh), the retries that learn it, and the write of the first plan:
 * the claims first when busy time moves (a calendar that refuses a staffer or
 * unit another write won has the change planned again on the same read, the
 * granted claims kept), then one batch.
 */
export function claimedWrites(deps: BookingDeps) {
  const { scope, env } = deps;
  const taken = new Map<string, BusyInterval[]>();
  const retries = new ClaimRetries((id) => {
    const busy = taken.get(id) ?? [];
    taken.set(id, busy);
    return busy;
  });
  const write = async <T>(
    first: PlannedWrite<T>,
    plan: () => PlannedWrite<T> | null,
  ): Promise<T> => {
    // The one meeting point of booking and series changes: a race test lines up either kind.
    await rendezvous("booking.change.before_write");
    if (first.claims.length === 0) {
      await runBatch(scope.db, first.build());
      return first.value;
    }
    return commitPlanned(env, scope.db, scope.workspaceId, first, deps.defer, {
      plan: () => {
        const next = plan();
        if (!next?.claims.length) throw new Error("the change no longer moves busy time");
        return next;
      },
      replan: (refusal) => retries.learn(refusal),
    });
  };
  return { taken, retries, write };
}
