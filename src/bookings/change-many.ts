import { attempt } from "../db/attempts";
import { isGuardFailure } from "../db/constraints";
import type { ChangeMessagesContext } from "../messages/queries/messages";
import {
  type LoadedSeries,
  seriesBookingIds,
  seriesMessagesRead,
  seriesRead,
} from "./queries/series-read";
import { type HeldCredits, heldCreditsRead } from "../packages/queries/booking-holds";
import { nothing, type ReadsOf, readTogether } from "../db/reads";
import { ApiError, notFound, RecordChangedError } from "../platform/errors";
import { SlotTakenError } from "../calendar/slot-taken";
import { renderBooking } from "./views/booking";
import type { Booking } from "./views/booking-schema";
import { claimedWrites, type Planning } from "./change";
import { changesWrite, type PlannedChange } from "./change-write-many";
import type { BookingDeps } from "./deps";
import { stableIds } from "../calendar/planning/plan-ids";

/**
 * One change of many bookings of a series, as the runner takes it: like a
 * `BookingOperation`, its reads and a plan, but the plan sees the whole
 * series and returns one `BookingChange` per booking it changes.
 */
export type SeriesOperation<R = undefined> = ReadsOf<R> & {
  /** The change may tell the customer: the series' messages context is read with it. */
  notifies?: boolean;
  /**
   * Each changed booking with its change, from what was read alone (none:
   * nothing to write). Throws the reason the change is refused.
   */
  plan: (loaded: LoadedSeries, planning: Planning<R>) => PlannedChange[];
  /** Turns a refusal into the answer (a 409 with each occurrence's alternatives). */
  refusal?: (error: unknown, loaded: LoadedSeries) => Promise<unknown>;
};

/** The series as the change leaves it: its row and every occurrence, rendered. */
export interface SeriesChanged {
  series: LoadedSeries["series"];
  bookings: Booking[];
}

const RETRY_PAUSE_MS = 40;

const changed = () =>
  new ApiError(
    "booking_changed",
    "The series or one of its bookings was changed by another request at the same moment; reload it and try again.",
  );

/**
 * Runs one change of many bookings of a series as ONE versioned change: one
 * read batch (the series, every occurrence, what the plan and the messages
 * need), one plan, claims grouped per calendar, one D1 batch guarded by every
 * changed booking's version and the series' version. Racing another series
 * change or a change of one of its bookings, it ends as some order of the two
 * would: the loser's guard (or a calendar's lock on the entries it replaces)
 * refuses it, it reads again and plans once more, and losing twice answers
 * 409 `booking_changed`. The retry policy is the single booking's
 * (`changes/attempts.ts`).
 */
export function changeSeries<R = undefined>(
  deps: BookingDeps,
  seriesId: string,
  operation: SeriesOperation<R>,
): Promise<SeriesChanged> {
  const { scope } = deps;
  return attempt({
    name: "series",
    pauseMs: RETRY_PAUSE_MS,
    read: async () => {
      const read = await readTogether(scope.db, {
        loaded: seriesRead(scope, seriesId),
        creditHolds: heldCreditsRead(scope, seriesBookingIds(scope, seriesId)),
        reads: operation.reads?.(scope) ?? nothing(undefined as R),
        told: operation.notifies
          ? seriesMessagesRead(scope, seriesId)
          : nothing<ChangeMessagesContext | null>(null),
      });
      if (!read.loaded) throw notFound("Series");
      return {
        loaded: read.loaded,
        reads: read.reads,
        told: read.told,
        creditHolds: read.creditHolds,
      };
    },
    attempt: async (read, previous) => {
      try {
        return await commitSeries(deps, operation, read, previous?.reads);
      } catch (error) {
        throw (await operation.refusal?.(error, read.loaded)) ?? error;
      }
    },
    lost: (error) => isGuardFailure(error) || error instanceof RecordChangedError,
    gaveUp: changed,
  });
}

async function commitSeries<R>(
  deps: BookingDeps,
  operation: SeriesOperation<R>,
  {
    loaded,
    reads,
    told,
    creditHolds,
  }: {
    loaded: LoadedSeries;
    reads: R;
    told: ChangeMessagesContext | null;
    creditHolds: HeldCredits;
  },
  previous: R | undefined,
): Promise<SeriesChanged> {
  const { taken, retries, write } = claimedWrites(deps);
  const ids = stableIds();
  const planning = (): Planning<R> => ({
    now: Date.now(),
    reads,
    previous,
    taken,
    ids,
    staff: deps.staff,
    creditHolds,
  });
  const plan = () => {
    const p = planning();
    const planned = operation.plan(loaded, p);
    return planned.length === 0
      ? null
      : changesWrite(deps, planned, loaded.series, p.now, told, creditHolds);
  };
  const answer = (changedBookings: Booking[]): SeriesChanged => {
    const byId = new Map(changedBookings.map((b) => [b.uuid, b]));
    return {
      series: loaded.series,
      bookings: loaded.bookings.map((b) => byId.get(b.booking.id) ?? renderBooking(b, deps.render)),
    };
  };
  const first = plan();
  if (!first) return answer([]);
  try {
    return answer(await write(first, plan));
  } catch (error) {
    // A calendar refused time D1 did not show taken: planned again with it marked taken, the
    // plan names every occurrence that cannot move (its own refusal), or the refusal stands.
    if (!(error instanceof SlotTakenError)) throw error;
    retries.learn(error);
    operation.plan(loaded, planning());
    throw error;
  }
}
