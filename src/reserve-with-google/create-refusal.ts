import type { BookingDeps } from "../bookings/deps";
import { isUniqueViolation } from "../db/constraints";
import { ApiError, InvalidError } from "../platform/errors";
import { probe } from "../platform/failpoints";
import { answerOfToken } from "./queries/google-bookings";
import { invalidArgument } from "./wire/invalid";
import { failureOf } from "./rules/failures";
import type { FailureCause } from "./wire/enums";
import type { CreateBookingResponse } from "./wire/responses";

/** A business failure: HTTP 200, nothing stored (a retry with the same token is tried again). */
export const failure = (cause: FailureCause, description: string) =>
  JSON.stringify({ booking_failure: { cause, description } } satisfies CreateBookingResponse);

/**
 * A booking that did not commit. Requests with one token are kept apart by its claim; should
 * two still meet (a claim lapsed mid-booking), the one whose batch met the other's token
 * answers that booking.
 */
export async function refused(deps: BookingDeps, token: string, error: unknown): Promise<string> {
  const raced = isUniqueViolation(error, "rwg_bookings", "idempotency_token");
  // Lets a race test prove which path a loser took (inert otherwise).
  if (raced) probe("rwg.create.token_raced");
  const verdict = raced
    ? null
    : error instanceof InvalidError
      ? failureOf({ code: error.code, subjects: error.problems.map((p) => p.about.is) })
      : error instanceof ApiError
        ? failureOf({ code: error.code, subjects: [] })
        : { kind: "http" as const };
  if (verdict?.kind === "http") {
    // A 422 of another code (too large…) is answered as such, never as an unmapped 500.
    throw error instanceof InvalidError ? new ApiError(error.code, describe(error)) : error;
  }
  const description = describe(error);
  if (verdict?.kind === "invalid_argument") {
    throw invalidArgument("user_information", description);
  }
  // Only a claim that lapsed mid-booking lets two requests with one token this far.
  const won = raced ? (await answerOfToken(deps.scope, token))?.response : undefined;
  if (won) return won;
  if (!verdict) throw error;
  return failure(verdict.cause, description);
}

const describe = (error: unknown) =>
  error instanceof InvalidError
    ? error.problems.flatMap((p) => p.messages).join(" ")
    : error instanceof Error
      ? error.message
      : "The booking could not be made.";
