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
import { SeriesWithBookingsSchema } from "../../../views/series";

/** What a series change answers: the series with every occurrence, or its refusals. */
export const seriesChangeResponses = (
  conflicts: { description: string; codes: readonly ErrorCode[] },
  invalid: string,
) => ({
  200: json(SeriesWithBookingsSchema, "The series and every occurrence as they now are"),
  ...authErrors,
  ...bodyErrors,
  ...notFoundError("series"),
  ...conflictErrors(conflicts.description, conflicts.codes),
  422: errorCodes(`${invalid}, ${TOO_LARGE}`, ["validation_failed", "request_too_large"]),
});
