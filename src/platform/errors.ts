import { z } from "@hono/zod-openapi";
import type { Problem, Subject } from "./rules/problems";

/**
 * Every code the API answers with: the stable, machine-readable part of an
 * error; the status follows from it (`statusFor`). The OpenAPI documents list
 * them (the `ErrorCode` component of every error body).
 */
export const ErrorCodeSchema = z
  .enum([
    "validation_failed",
    "invalid_json",
    "invalid_argument",
    "unsupported_media_type",
    "unauthenticated",
    "invalid_token",
    "forbidden",
    "origin_not_allowed",
    "not_found",
    "route_not_found",
    "method_not_allowed",
    "conflict",
    "slot_unavailable",
    "session_full",
    "booking_not_replaceable",
    "booking_closed",
    "booking_changed",
    "reservation_expired",
    "policy_window_passed",
    "payment_required",
    "order_not_open",
    "account_requires_action",
    "order_has_booked_services",
    "order_not_paid",
    "order_changed",
    "voucher_unavailable",
    "voucher_balance_changed",
    "voucher_already_used",
    "not_a_membership",
    "package_void",
    "package_unavailable",
    "package_already_used",
    "card_required",
    "customer_required",
    "nothing_due",
    "payload_too_large",
    "request_too_large",
    "rate_limited",
    "too_many_holds",
    "too_many_bookings",
    "too_many_entries",
    "calendar_unreachable",
    "calendar_invalid",
    "internal_error",
    "payments_unavailable",
    "workspace_moving",
    "invalid_signature",
  ])
  .openapi("ErrorCode", { description: "Stable error code; the HTTP status follows from it." });

export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export type FieldErrors = Record<string, string[]>;

export function statusFor(
  code: ErrorCode,
): 400 | 401 | 402 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 429 | 500 | 503 {
  switch (code) {
    // invalid_signature: a provider's webhook whose signature does not verify (nothing is written);
    // invalid_argument: a Reserve with Google request naming what is not there (Google's 400).
    case "invalid_json":
    case "invalid_signature":
    case "invalid_argument":
      return 400;
    case "unauthenticated":
    case "invalid_token":
      return 401;
    // A customer's booking whose services take money online: it goes through a checkout.
    case "payment_required":
      return 402;
    case "forbidden":
    case "origin_not_allowed":
      return 403;
    case "not_found":
    case "route_not_found":
      return 404;
    case "method_not_allowed":
      return 405;
    // package_unavailable: a customer package that cannot pay for the booking (void, past due,
    // expired or used up); package_already_used: a refund of an order whose packages were used
    // or are held by a booking; card_required: a membership is paid online (its card saved for
    // the renewals), not at a till; customer_required: an order paid online needs a customer (the
    // provider's customer, a membership's owner); nothing_due: an order paid online that owes
    // nothing (pay it at the till). (Comments between the cases would read as a fall-through.)
    case "conflict":
    case "slot_unavailable":
    case "session_full":
    case "booking_not_replaceable":
    case "booking_closed":
    case "booking_changed":
    case "too_many_entries":
    case "reservation_expired":
    case "policy_window_passed":
    case "order_not_open":
    case "order_not_paid":
    case "order_changed":
    case "voucher_unavailable":
    case "voucher_balance_changed":
    case "voucher_already_used":
    case "not_a_membership":
    case "package_void":
    case "package_unavailable":
    case "package_already_used":
    case "card_required":
    case "customer_required":
    case "nothing_due":
      return 409;
    case "payload_too_large":
      return 413;
    case "unsupported_media_type":
      return 415;
    case "validation_failed":
    case "request_too_large":
    case "account_requires_action":
    case "order_has_booked_services":
    case "calendar_unreachable":
    case "calendar_invalid":
      return 422;
    case "rate_limited":
    case "too_many_holds":
    case "too_many_bookings":
      return 429;
    case "internal_error":
      return 500;
    // Payments are not configured, or the provider did not answer: nothing was charged.
    // A move between shards has the workspace's writes paused (Retry-After says when to retry).
    case "workspace_moving":
    case "payments_unavailable":
      return 503;
  }
}

/** A free start offered instead of a taken one (409 `slot_unavailable`). */
export interface Alternative {
  start: string;
  staffer_uuid: string;
}

/** An occurrence of a series that cannot be booked or moved (409 `slot_unavailable` of a series). */
export interface Conflict {
  start: string;
  reason: "slot_unavailable" | "outside_working_hours";
  alternatives: Alternative[];
}

/** One error class for every failure the API reports on purpose. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly errors: FieldErrors | undefined;
  readonly headers: Record<string, string> | undefined;
  readonly alternatives: Alternative[] | undefined;
  /** The body's `conflicts`: a series' occurrences that cannot be booked or moved. */
  readonly occurrenceConflicts: Conflict[] | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      errors?: FieldErrors;
      headers?: Record<string, string>;
      alternatives?: Alternative[];
      conflicts?: Conflict[];
    } = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.errors = options.errors;
    this.headers = options.headers;
    this.alternatives = options.alternatives;
    this.occurrenceConflicts = options.conflicts;
  }

  get status() {
    return statusFor(this.code);
  }
}

/** A move between shards has the workspace's writes paused, or just switched its shard. */
export const workspaceMoving = () =>
  new ApiError(
    "workspace_moving",
    "The workspace is being moved between databases; its writes are paused for a moment. Retry shortly.",
    { headers: { "retry-after": "1" } },
  );

export const notFound = (what: string) => new ApiError("not_found", `${what} not found.`);

/** A 422 for one or more fields, Laravel style: first message becomes the summary. */
export function validationError(errors: FieldErrors): ApiError {
  const fields = Object.keys(errors);
  const first = fields[0] ? errors[fields[0]]?.[0] : undefined;
  const more =
    fields.length > 1
      ? ` (and ${fields.length - 1} more error${fields.length > 2 ? "s" : ""})`
      : "";
  return new ApiError("validation_failed", `${first ?? "The given data was invalid."}${more}`, {
    errors,
  });
}

export const fieldError = (field: string, message: string) =>
  validationError({ [field]: [message] });

/**
 * A use-case refuses a request for what it asks about, named in domain words
 * (src/platform/rules/problems.ts); the route that called it maps each subject to its
 * body's field (`withFields`, src/http/request-fields.ts) and answers the
 * usual 422 (or `code`) with `errors`. Deliberately not an ApiError: one that
 * reaches the error handler unmapped is a route's bug and answers 500, never
 * a body with domain names where field names belong.
 */
export class InvalidError<S extends Subject = Subject> extends Error {
  readonly problems: readonly Problem<S>[];
  readonly code: ErrorCode;

  constructor(
    problems: readonly Problem<S>[],
    /** Another code than `validation_failed` comes with its own summary `message`. */
    other?: { code: ErrorCode; message: string },
  ) {
    super(other?.message ?? "The request is invalid (its route maps the subjects to fields).");
    this.name = "InvalidError";
    this.problems = problems;
    this.code = other?.code ?? "validation_failed";
  }
}

/** A 422 about one thing. */
export const invalid = <S extends Subject>(about: S, message: string) =>
  new InvalidError<S>([{ about, messages: [message] }]);

/**
 * The record changed between the read and the write (its version moved, or a
 * calendar shows another write replacing the same time). Internal: a use-case
 * retries once on fresh state, then answers its own 409.
 */
export class RecordChangedError extends Error {
  constructor() {
    super("the record changed while this write was in flight");
    this.name = "RecordChangedError";
  }
}
