import { engineInputs } from "../../calendar/availability/engine-input";
import type { SearchRange } from "../../calendar/availability/search-range";
import { availabilityRead } from "../../calendar/queries/availability";
import { bookingRefs } from "../queries/booking-refs";
import type { Scope } from "../../db/scope";
import { allows } from "../rules/booking-rules";
import { instantToLocalDate, moveStarts } from "../../calendar/rules";
import { ApiError } from "../../platform/errors";
import { assertPolicyAllows } from "../policy-window";
import { readManaged } from "./read";
import type { ManageGrant } from "../manage-token";

/**
 * Where a customer may move their booking: the starts in `range` where it
 * fits with the same staffers and shape, its own current time not counted as
 * busy (the test a reschedule makes). One D1 round trip: the booking, its
 * location and its staffers' availability in one batch. A closed booking is
 * 409 `booking_closed`, and one past the location's change window 409
 * `policy_window_passed`, as a reschedule would answer.
 */
export async function managedMoveStarts(scope: Scope, grant: ManageGrant, range: SearchRange) {
  const its = bookingRefs(scope, grant.bookingId);
  const managed = await readManaged(
    scope,
    grant,
    availabilityRead(scope, {
      locationId: its.locationId,
      serviceIds: its.serviceIds,
      stafferIds: its.stafferIds,
      fromDate: range.fromDate,
      // A booking that starts on the last day may end on the next one.
      toDate: its.movedEndDate(Date.parse(`${range.toDate}T23:59:59Z`), 1),
    }),
  );
  const { loaded } = managed;
  const now = Date.now();
  if (!allows(loaded.booking, "reschedule"))
    throw new ApiError("booking_closed", "The booking is completed or canceled.");
  assertPolicyAllows("change", loaded, now);
  const inputs = engineInputs(managed.extra, {
    ignoreEntries: new Set(loaded.entries.map((e) => e.id)),
  });
  if (!inputs) throw new Error("the booking's location vanished");
  const tz = inputs.rules.timezone;
  const fromDate =
    range.fromInstant === null ? range.fromDate : instantToLocalDate(range.fromInstant, tz);
  const toDate = range.toInstant === null ? range.toDate : instantToLocalDate(range.toInstant, tz);
  const starts = moveStarts({
    location: inputs.rules,
    staffers: [...inputs.calendars.values()],
    services: loaded.services.map((s) => ({
      durationMin: s.duration,
      bufferMin: s.buffer,
      stafferIds: [s.stafferId],
      resourceIds: inputs.resourcesOf(s.serviceId),
      // A group booking's seats move to a session with that many seats left (or a new one).
      session: inputs.sessionOf(s.serviceId, s.quantity),
    })),
    offsetsMs: loaded.services.map((s) => s.reservedOn - loaded.booking.startAt),
    fromDate,
    toDate,
    current: loaded.booking.startAt,
    now,
    resources: inputs.resources,
  }).filter(
    (start) =>
      (range.fromInstant === null || start >= range.fromInstant) &&
      (range.toInstant === null || start <= range.toInstant),
  );
  return {
    ...managed,
    timezone: tz,
    fromDate,
    toDate,
    starts,
    lengthMs: loaded.booking.endAt - loaded.booking.startAt,
  };
}
