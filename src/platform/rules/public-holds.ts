import { type ItemSubject, type Problem, problem } from "./problems";
import {
  PUBLIC_VISIT,
  visitDurationProblems,
  visitSeatProblems,
  visitShapeProblems,
} from "./public-visit";

/**
 * What one visitor with a publishable key (which every salon's web page
 * carries) may hold at once. Secret keys (staff) are not bound by these.
 */
export const PUBLIC_HOLDS = {
  /** Live reservations per key and client address. */
  perHolder: 3,
  /** Services in one reservation, over all its items (as a booking's). */
  services: PUBLIC_VISIT.services,
  /** Staff time of one reservation: the sum of its services' durations (as a booking's). */
  staffMinutes: PUBLIC_VISIT.staffMinutes,
  ttlSeconds: 600,
} as const;

/** What a hold can be wrong about: its items, and how long it is to live. */
export type HoldSubject = ItemSubject | { is: "ttl" };

const HOLDS = "A reservation with a publishable key holds";

/** The shape-only bounds (no catalogue needed): the services' count and the ttl. */
export function publicHoldShapeProblems(
  items: readonly { services: readonly { quantity?: number | undefined }[] }[],
  ttlSeconds: number,
): Problem<HoldSubject>[] {
  const ttl: Problem<HoldSubject>[] =
    ttlSeconds > PUBLIC_HOLDS.ttlSeconds
      ? [
          problem(
            { is: "ttl" },
            `At most ${PUBLIC_HOLDS.ttlSeconds} seconds with a publishable key.`,
          ),
        ]
      : [];
  return [...ttl, ...visitShapeProblems(items, HOLDS), ...visitSeatProblems(items, HOLDS)];
}

/** The staff time bound, once the services' durations are known (see `visitDurationProblems`). */
export const publicHoldDurationProblems = (
  items: readonly { services: readonly { durationMin: number }[] }[],
): Problem<HoldSubject>[] => visitDurationProblems(items, HOLDS);
