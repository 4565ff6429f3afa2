import type { FailureCause } from "../wire/enums";
import { HORIZON_DAYS } from "./slot-match";

/**
 * What a refusal of ours becomes in a CreateBooking (or UpdateBooking) answer: a business
 * failure Google shows its user (`booking_failure`, HTTP 200), or Google's own 400
 * `invalid_argument` (the request named something that is not there, or is malformed).
 * Anything else (429 rate limits, 409 `booking_changed`, 503 `workspace_moving`, our bugs)
 * stays the HTTP error it is: Google retries those.
 */
export type FailureVerdict =
  { kind: "failure"; cause: FailureCause } | { kind: "invalid_argument" } | { kind: "http" };

/** A refusal as the use-case saw it: an error code, and the subjects of a 422's problems. */
export interface Refusal {
  code: string;
  /** The `is` of each problem of an `InvalidError` (empty for a plain error). */
  subjects: readonly string[];
}

/** Our error codes that are business failures in Google's words. */
const BY_CODE: Readonly<Record<string, FailureCause>> = {
  // The time is taken, or a group session's seats are.
  slot_unavailable: "SLOT_UNAVAILABLE",
  session_full: "SLOT_UNAVAILABLE",
  // The service takes money online (402): Google has no checkout of ours to send a user to.
  payment_required: "PAYMENT_ERROR",
  too_many_bookings: "USER_OVER_BOOKING_LIMIT",
};

/**
 * What a 422's problem is about (src/platform/rules/problems.ts), in Google's words: the
 * slot as asked cannot be booked (a start in the past, outside hours, off the grid or the
 * booking window; a staffer who does not perform the service there; a service the location
 * lacks a resource for), or the user's details do not fit (a phone that is not one, a field
 * the workspace's booking form requires).
 */
const BY_SUBJECT: Readonly<Record<string, FailureVerdict>> = {
  start: { kind: "failure", cause: "SLOT_UNAVAILABLE" },
  staffer: { kind: "failure", cause: "SLOT_UNAVAILABLE" },
  service: { kind: "failure", cause: "SLOT_UNAVAILABLE" },
  quantity: { kind: "failure", cause: "SLOT_UNAVAILABLE" },
  services: { kind: "failure", cause: "SLOT_UNAVAILABLE" },
  location: { kind: "invalid_argument" },
  phone: { kind: "invalid_argument" },
  form: { kind: "invalid_argument" },
};

/** Ranks verdicts so that one 422 with several problems answers its strongest: a 400 first. */
const RANK: Record<FailureVerdict["kind"], number> = { invalid_argument: 2, failure: 1, http: 0 };

/** The verdict for one refusal (a 422 whose subjects are all unknown to the table is a 400). */
export function failureOf(refusal: Refusal): FailureVerdict {
  const cause = BY_CODE[refusal.code];
  if (cause) return { kind: "failure", cause };
  if (refusal.code !== "validation_failed") return { kind: "http" };
  let verdict: FailureVerdict | undefined;
  for (const subject of refusal.subjects) {
    const v = BY_SUBJECT[subject] ?? { kind: "invalid_argument" };
    if (!verdict || RANK[v.kind] > RANK[verdict.kind]) verdict = v;
  }
  return verdict ?? { kind: "invalid_argument" };
}

const DAY_MS = 86_400_000;

/**
 * A start past the horizon the availability methods search (`HORIZON_DAYS`) is no slot of
 * ours: answered SLOT_UNAVAILABLE before any booking (its dates may not even be a `Date`).
 */
export const beyondHorizon = (startSec: number, now: number): boolean =>
  startSec * 1000 > now + HORIZON_DAYS * DAY_MS;
