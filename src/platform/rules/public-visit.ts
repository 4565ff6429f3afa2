import { type Problem, problem } from "./problems";

/**
 * What one visitor with a publishable key (which every salon's web page
 * carries) may ask for in one request, reserved or booked: a hold and a booking
 * without one share these bounds, so neither is the way around the other.
 * Secret keys (staff) are not bound by these.
 */
export const PUBLIC_VISIT = {
  /** Services in one reservation, booking or cart, over all its items. */
  services: 4,
  /** Staff time of one request: the sum of its services' durations. */
  staffMinutes: 240,
  /**
   * Seats of group services in one request, over all its services: a party,
   * not a whole class (a stranger with the page's key could otherwise fill a
   * session with one request).
   */
  seats: 10,
} as const;

/**
 * Bookings one visitor (key and client address) may make: those created in
 * the last `windowSeconds` count, a cart's each, canceled or not (a booking
 * and its cancel are two messages to whatever address the visitor typed), except
 * those staff canceled (the salon's decision hands the visitor the booking back).
 */
export const PUBLIC_BOOKINGS = {
  perVisitor: 6,
  windowSeconds: 86_400,
} as const;

/**
 * Messages one visitor's writes may cause (client address, through a
 * publishable key or a manage link alike): those sent at once (confirmation,
 * rescheduled, canceled; one per channel) of the last `windowSeconds` count;
 * past `perVisitor` they are written `skipped` with the error
 * `VISITOR_QUOTA`. Reminders neither count nor are bounded here: a booking
 * writes them once (bounded by `PUBLIC_BOOKINGS`), a change only moves them,
 * a cancel cancels them.
 */
export const PUBLIC_MESSAGES = {
  perVisitor: 20,
  windowSeconds: 86_400,
} as const;

/** The `error` of a message the visitor's daily bound skipped. */
export const VISITOR_QUOTA = "visitor_quota";

/**
 * What one booking's customer is told of the changes customers make to it
 * (publishable key or manage link, from any address): the booking-rescheduled
 * messages of the last `windowSeconds` caused by a customer count, per channel;
 * past `perBooking` they are written `skipped` with the error `BOOKING_QUOTA`
 * (the move itself succeeds). A per-address bound is no bound for a stranger
 * who rotates addresses; this one does not depend on the mover. Not bounded:
 * staff's messages (nor do they count), the confirmation (once per booking),
 * the cancel (once per booking, and what a customer must hear whoever moved
 * the booking before), reminders (moved, never added, by a change).
 */
export const BOOKING_MESSAGES = {
  perBooking: 5,
  windowSeconds: 86_400,
  kinds: ["booking-rescheduled"],
} as const;

/** The `error` of a message the booking's daily bound skipped. */
export const BOOKING_QUOTA = "booking_quota";

/** The services' count over all items, reported on the item whose services go past it. */
export function visitShapeProblems(
  items: readonly { services: readonly unknown[] }[],
  /** What the request is called: "A booking with a publishable key books". */
  wording: string,
): Problem<{ is: "services"; item: number }>[] {
  let seen = 0;
  for (const [i, item] of items.entries()) {
    seen += item.services.length;
    if (seen > PUBLIC_VISIT.services) {
      return [
        problem(
          { is: "services", item: i },
          `${wording} at most ${PUBLIC_VISIT.services} services in all.`,
        ),
      ];
    }
  }
  return [];
}

/** The seats bound over the quantities asked in all items, reported on the one that goes past it. */
export function visitSeatProblems(
  items: readonly { services: readonly { quantity?: number | undefined }[] }[],
  /** What the request is called: "A booking with a publishable key books". */
  wording: string,
): Problem<{ is: "quantity"; item: number; service: number }>[] {
  // A visit over the services bound is refused for that alone (visitShapeProblems): its
  // services would pass the seats bound too, and say the same thing twice.
  if (items.reduce((n, item) => n + item.services.length, 0) > PUBLIC_VISIT.services) return [];
  let seats = 0;
  for (const [i, item] of items.entries()) {
    for (const [j, service] of item.services.entries()) {
      // A service without `quantity` is one seat (or one person of a one-to-one service):
      // four such items of one class and a party of ten are thirteen seats, not ten.
      seats += service.quantity ?? 1;
      if (seats > PUBLIC_VISIT.seats) {
        return [
          problem(
            { is: "quantity", item: i, service: j },
            `${wording} at most ${PUBLIC_VISIT.seats} seats in all.`,
          ),
        ];
      }
    }
  }
  return [];
}

/**
 * The staff time bound, once the services' durations are known: reported on
 * the first service that no longer fits in it.
 */
export function visitDurationProblems(
  items: readonly { services: readonly { durationMin: number }[] }[],
  /** What the request is called: "A booking with a publishable key books". */
  wording: string,
): Problem<{ is: "service"; item: number; service: number }>[] {
  let minutes = 0;
  for (const [i, item] of items.entries()) {
    for (const [j, service] of item.services.entries()) {
      minutes += service.durationMin;
      if (minutes > PUBLIC_VISIT.staffMinutes) {
        return [
          problem(
            { is: "service", item: i, service: j },
            `${wording} at most ${PUBLIC_VISIT.staffMinutes / 60} hours of staff time (the sum of its services' durations).`,
          ),
        ];
      }
    }
  }
  return [];
}
