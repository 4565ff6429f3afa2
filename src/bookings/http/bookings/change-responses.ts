import type { ErrorCode } from "../../../platform/errors";
import {
  authErrors,
  bodyErrors,
  conflictErrors,
  errorCodes,
  json,
  notFoundError,
  TOO_LARGE,
} from "../../../http/responses";
import { BookingSchema } from "../../views/booking-schema";

/**
 * What a change of one thing (`what`) answers: `ok` with it as it now is, or
 * its own conflicts (409) and invalid fields (422), described per operation.
 */
export const changeResponsesOf = <Ok>(
  ok: Ok,
  what: string,
  conflicts: { description: string; codes: readonly ErrorCode[] },
  invalid: string,
  /** The operation moves busy time to calendars it may not have held (reschedule, staffer, services). */
  movesTime: boolean,
) => ({
  200: ok,
  ...authErrors,
  ...bodyErrors,
  ...notFoundError(what),
  ...conflictErrors(conflicts.description, conflicts.codes),
  422: movesTime
    ? errorCodes(`${invalid}, ${TOO_LARGE}`, ["validation_failed", "request_too_large"])
    : errorCodes(invalid, ["validation_failed"]),
});

/**
 * What a booking lifecycle operation can answer: the booking as it now is, or
 * its own conflicts (409) and invalid fields (422), described per operation.
 */
export const changeResponses = (
  conflicts: { description: string; codes: readonly ErrorCode[] },
  invalid: string,
  /** The operation moves busy time to calendars it may not have held (reschedule, staffer, services). */
  movesTime = false,
) =>
  changeResponsesOf(
    json(BookingSchema, "The booking as it now is"),
    "booking",
    conflicts,
    invalid,
    movesTime,
  );
