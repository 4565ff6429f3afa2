import { visitorBookings, visitorWithinCap } from "./queries/booking-visitors";
import type { Scope } from "../db/scope";
import { PUBLIC_BOOKINGS } from "../platform/rules/public-visit";
import { ApiError } from "../platform/errors";
import { type QuotaSpec, retryAfter } from "../calendar/planning/visitor-quota";

const WINDOW_MS = PUBLIC_BOOKINGS.windowSeconds * 1000;

/** What the per-request bounds call a booking in their messages. */
export const BOOKING_VISIT = "A booking with a publishable key books";

/** The cap on a publishable visitor's bookings (`PUBLIC_BOOKINGS`); null for staff. */
export function bookingQuota(scope: Scope, visitor: string | undefined): QuotaSpec | null {
  if (!visitor) return null;
  const since = () => Date.now() - WINDOW_MS;
  return {
    limit: PUBLIC_BOOKINGS.perVisitor,
    count: async () => {
      const { counted, oldest } = await visitorBookings(scope, visitor, since());
      return { used: counted, frees: oldest === null ? null : oldest + WINDOW_MS };
    },
    within: (adding) =>
      visitorWithinCap(scope, visitor, since(), adding, PUBLIC_BOOKINGS.perVisitor),
    refuse: (frees) =>
      new ApiError(
        "too_many_bookings",
        `A visitor may make at most ${PUBLIC_BOOKINGS.perVisitor} bookings a day with a publishable key, canceled ones included; wait until the first of them is a day old.`,
        { headers: { "retry-after": retryAfter(frees) } },
      ),
  };
}
