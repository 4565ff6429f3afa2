import {
  PUBLIC_VISIT,
  type VisitFields,
  visitDurationProblems,
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

type FieldErrors = Record<string, string[]>;

const HOLD_FIELDS: VisitFields = {
  subject: "A reservation with a publishable key holds",
  services: (i) => `items.${i}.services`,
  service: (i, j) => `items.${i}.services.${j}.service_uuid`,
};

/** The shape-only bounds (no catalogue needed): the services' count and the ttl. */
export function publicHoldShapeProblems(
  items: readonly { services: readonly unknown[] }[],
  ttlSeconds: number,
): FieldErrors {
  const problems: FieldErrors = {};
  if (ttlSeconds > PUBLIC_HOLDS.ttlSeconds) {
    problems.ttl_seconds = [`At most ${PUBLIC_HOLDS.ttlSeconds} seconds with a publishable key.`];
  }
  return { ...problems, ...visitShapeProblems(items, HOLD_FIELDS) };
}

/** The staff time bound, once the services' durations are known (see `visitDurationProblems`). */
export const publicHoldDurationProblems = (
  items: readonly { services: readonly { durationMin: number }[] }[],
): FieldErrors => visitDurationProblems(items, HOLD_FIELDS);
