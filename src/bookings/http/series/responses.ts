import type { ErrorCode } from "../../../platform/errors";
import { json } from "../../../http/responses";
import { SeriesWithBookingsSchema } from "../../views/series";
import { changeResponsesOf } from "../bookings/change-responses";

/** What a series change answers: the series with every occurrence, or its refusals. */
export const seriesChangeResponses = (
  conflicts: { description: string; codes: readonly ErrorCode[] },
  invalid: string,
) =>
  changeResponsesOf(
    json(SeriesWithBookingsSchema, "The series and every occurrence as they now are"),
    "series",
    conflicts,
    invalid,
    true,
  );
