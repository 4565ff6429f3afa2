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
} as const;

/**
 * Bookings one visitor (key and client address) may make: those created in
 * the last `windowSeconds` that are not cancelled count, a cart's each.
 */
export const PUBLIC_BOOKINGS = {
  perVisitor: 6,
  windowSeconds: 86_400,
} as const;

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
