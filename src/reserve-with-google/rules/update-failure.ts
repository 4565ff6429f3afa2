import type { FailureCause } from "../wire/enums";

/**
 * Which of the public API's refusals of a cancel or a move are Google's business failures
 * (a `booking_failure` in an HTTP 200), by the refusal's code. Anything else (the per-booking
 * change limit, a change lost twice, a moving workspace) is no failure of the booking's and
 * stays the HTTP error it is.
 */
export function updateFailure(
  error: unknown,
  kind: "cancel" | "move",
  state: { isCanceled: boolean },
): { cause: FailureCause; description: string } | undefined {
  const code = codeOf(error);
  switch (code) {
    case "booking_closed":
      return state.isCanceled
        ? { cause: "BOOKING_ALREADY_CANCELLED", description: "The booking is already canceled." }
        : { cause: "BOOKING_NOT_CANCELLABLE", description: "The booking is completed." };
    case "policy_window_passed":
      return {
        cause: "OUTSIDE_CANCELLATION_WINDOW",
        description:
          kind === "cancel"
            ? "The location's cancellation window before the start has passed."
            : "The location's change window before the start has passed.",
      };
    case "slot_unavailable":
    case "session_full":
    case "package_unavailable":
      return { cause: "SLOT_UNAVAILABLE", description: "The new time is taken." };
    // A start the calendar refuses (past, inside the notice, outside working hours).
    case "validation_failed":
      return kind === "move"
        ? { cause: "SLOT_UNAVAILABLE", description: "The booking cannot start at that time." }
        : undefined;
    default:
      return undefined;
  }
}

function codeOf(error: unknown): string | undefined {
  if (error === null || typeof error !== "object" || !("code" in error)) return undefined;
  const { code } = error as { code: unknown };
  return typeof code === "string" ? code : undefined;
}
