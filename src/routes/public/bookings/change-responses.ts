import type { ErrorCode } from "../../../lib/errors";
import {
  authErrors,
  bodyErrors,
  conflictErrors,
  errorCodes,
  json,
  notFoundError,
  TOO_LARGE,
} from "../../../lib/responses";
import { BookingSchema } from "../../../views/booking-schema";

/**
 * What a booking lifecycle operation can answer: the booking as it now is, or
 * its own conflicts (409) and invalid fields (422), described per operation.
 */
export const changeResponses = (
  conflicts: { description: string; codes: readonly ErrorCode[] },
  invalid: string,
  /** The operation moves busy time to calendars it may not have held (reschedule, staffer, services). */
  movesTime = false,
) => ({
  200: json(BookingSchema, "The booking as it now is"),
  ...authErrors,
  ...bodyErrors,
  ...notFoundError("booking"),
  ...conflictErrors(conflicts.description, conflicts.codes),
  422: movesTime
    ? errorCodes(`${invalid}, ${TOO_LARGE}`, ["validation_failed", "request_too_large"])
    : errorCodes(invalid, ["validation_failed"]),
});
