import type { BookingDeps } from "../bookings/deps";
import { isUniqueViolation } from "../db/constraints";
import { ApiError, InvalidError } from "../platform/errors";
import { probe } from "../platform/failpoints";
import { answerOfToken } from "./queries/google-bookings";
import { failureOf } from "./rules/failures";
import type { FailureCause } from "./wire/enums";
import type { CreateBookingResponse } from "./wire/responses";

export const invalidArgument = (field: string, message: string) =>
  new ApiError("invalid_argument", message, { errors: { [field]: [message] } });

/** A business failure: HTTP 200, nothing stored (a retry with the same token is tried again). */
export const failure = (cause: FailureCause, description: string) =>
  JSON.stringify({ booking_failure: { cause, description } } satisfies CreateBookingResponse);

/**
 * A booking that did not commit. Another request with the same token may have won (its
 * batch took the token first, or its hold the time): that answer is this one's too.
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
    throw new ApiError("invalid_argument", description, {
      errors: { user_information: [description] },
    });
  }
  const won = await winnerOf(deps, token, timeTaken(error));
  if (won) return won;
  if (!verdict) throw error;
  return failure(verdict.cause, description);
}

/** How long a loser waits for a winner's batch that held the time when the loser claimed it. */
const WINNER_GRACE_MS = 150;

/**
 * The answer a concurrent request with the same token got. When the time itself was taken,
 * the taker may be that request, its hold granted and its batch still on its way: it is
 * looked for again a moment later, so one token never answers both a booking and a failure.
 */
async function winnerOf(deps: BookingDeps, token: string, taken: boolean) {
  const now = await answerOfToken(deps.scope, token);
  if (now || !taken) return now?.response;
  probe("rwg.create.winner_awaited");
  await new Promise((resolve) => setTimeout(resolve, WINNER_GRACE_MS));
  return (await answerOfToken(deps.scope, token))?.response;
}

const timeTaken = (error: unknown) =>
  error instanceof ApiError && (error.code === "slot_unavailable" || error.code === "session_full");

const describe = (error: unknown) =>
  error instanceof InvalidError
    ? error.problems.flatMap((p) => p.messages).join(" ")
    : error instanceof Error
      ? error.message
      : "The booking could not be made.";
