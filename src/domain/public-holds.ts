/**
 * What one visitor with a publishable key (which every salon's web page
 * carries) may hold at once. Secret keys (staff) are not bound by these.
 */
export const PUBLIC_HOLDS = {
  /** Live reservations per key and client address. */
  perHolder: 3,
  /** Services in one reservation, over all its items. */
  services: 4,
  /** Staff time of one reservation: the sum of its services' durations. */
  staffMinutes: 240,
  ttlSeconds: 600,
} as const;

type FieldErrors = Record<string, string[]>;

/** The shape-only bounds (no catalogue needed): the services' count and the ttl. */
export function publicHoldShapeProblems(
  items: readonly { services: readonly unknown[] }[],
  ttlSeconds: number,
): FieldErrors {
  const problems: FieldErrors = {};
  if (ttlSeconds > PUBLIC_HOLDS.ttlSeconds) {
    problems.ttl_seconds = [`At most ${PUBLIC_HOLDS.ttlSeconds} seconds with a publishable key.`];
  }
  let seen = 0;
  for (const [i, item] of items.entries()) {
    seen += item.services.length;
    if (seen > PUBLIC_HOLDS.services) {
      // Reported on the item whose services go past the bound.
      problems[`items.${i}.services`] = [
        `A reservation with a publishable key holds at most ${PUBLIC_HOLDS.services} services in all.`,
      ];
      break;
    }
  }
  return problems;
}

/**
 * The staff time bound, once the services' durations are known: reported on
 * the first service that no longer fits in it.
 */
export function publicHoldDurationProblems(
  items: readonly { services: readonly { durationMin: number }[] }[],
): FieldErrors {
  let minutes = 0;
  for (const [i, item] of items.entries()) {
    for (const [j, service] of item.services.entries()) {
      minutes += service.durationMin;
      if (minutes > PUBLIC_HOLDS.staffMinutes) {
        return {
          [`items.${i}.services.${j}.service_uuid`]: [
            `A reservation with a publishable key holds at most ${PUBLIC_HOLDS.staffMinutes / 60} hours of staff time (the sum of its services' durations).`,
          ],
        };
      }
    }
  }
  return {};
}
