import { loadAvailability, shiftDate } from "../queries/availability";
import type { Scope } from "../../db/scope";
import { nearestStarts } from "../rules";
import { toIso, utcDate } from "../../platform/clock";
import type { Alternative } from "../../platform/errors";
import { log } from "../../platform/log";
import { engineInputs } from "./engine-input";

/** Days either side of each refused start that alternatives are looked for in. */
const DAYS = 7;
const LIMIT = 5;

/** One occurrence that cannot be placed: where it was asked for and its fixed layout. */
export interface RefusedOccurrence {
  start: number;
  /** `outside_working_hours` when the engine refuses the time itself, else it is taken. */
  reason: "slot_unavailable" | "outside_working_hours";
  /** Each service with its one staffer, in order. */
  services: { serviceId: string; stafferId: string; durationMin: number; bufferMin: number }[];
  /** Each service's offset from the start (the booking keeps its shape). */
  offsetsMs: number[];
}

/**
 * Free starts near each refused occurrence of a series (its 409's
 * `conflicts[].alternatives`): one fresh read of D1 covering every refused
 * start ± a week, however many they are, then the same search a single
 * reschedule's alternatives make, per occurrence. The series' own moving
 * time is not in its way. Empty lists when the read fails.
 */
export async function occurrenceAlternatives(
  scope: Scope,
  query: { locationId: string; ignoreEntries: ReadonlySet<string>; refused: RefusedOccurrence[] },
): Promise<Alternative[][]> {
  const { refused } = query;
  if (refused.length === 0) return [];
  try {
    const starts = refused.map((r) => r.start);
    const loaded = await loadAvailability(scope, {
      locationId: query.locationId,
      serviceIds: [...new Set(refused.flatMap((r) => r.services.map((s) => s.serviceId)))],
      fromDate: shiftDate(utcDate(Math.min(...starts)), -DAYS - 1),
      toDate: shiftDate(utcDate(Math.max(...starts)), DAYS + 2),
    });
    const inputs = engineInputs(loaded, { ignoreEntries: query.ignoreEntries });
    if (!inputs) return refused.map(() => []);
    const staffers = [...inputs.calendars.values()];
    const now = Date.now();
    return refused.map((r) =>
      nearestStarts({
        location: inputs.rules,
        staffers,
        services: r.services.map((s) => ({
          durationMin: s.durationMin,
          bufferMin: s.bufferMin,
          stafferIds: [s.stafferId],
          resourceIds: inputs.resourcesOf(s.serviceId),
        })),
        resources: inputs.resources,
        offsetsMs: r.offsetsMs,
        around: r.start,
        now,
        limit: LIMIT,
        days: DAYS,
      }).map((a) => ({ start: toIso(a.start), staffer_uuid: a.stafferId })),
    );
  } catch (failure) {
    log("warn", "series alternatives failed", { error: failure });
    return refused.map(() => []);
  }
}
