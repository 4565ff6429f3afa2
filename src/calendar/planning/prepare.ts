import { engineInputs } from "../availability/engine-input";
import { loadAvailability, shiftDate } from "../queries/availability";
import type { Scope } from "../../db/scope";
import { utcDate } from "../../platform/clock";
import { type ItemSubject, type Problem, problem } from "../../platform/rules/problems";
import { InvalidError, invalid } from "../../platform/errors";
import type { PlanItem } from "./planner";

/** A cart item can run 10 services of at most 1425 + 180 minutes: this many days covers it. */
const WINDOW_DAYS = 12;

export interface PlanningRequest {
  locationId: string;
  items: PlanItem[];
  /** Also look up this customer (a booking needs to know whether it is new). */
  customerId?: string;
  /** Busy time the write will replace (a reservation being used): not in the way of itself. */
  ignoreEntries?: ReadonlySet<string>;
  /** A publishable key's request: services the widget does not show are unknown (422). */
  widgetOnly?: boolean;
}

/**
 * Everything placing items on staff calendars needs, in one D1 round trip,
 * checked: a known location, known services offered there, and named staffers
 * who may perform them (422 about those items otherwise).
 */
export async function loadPlanning(scope: Scope, req: PlanningRequest) {
  const loaded = await loadAvailability(scope, {
    ...planningQuery(req),
    ...(req.customerId ? { customerId: req.customerId } : {}),
  });
  const inputs = engineInputs(
    loaded,
    req.ignoreEntries ? { ignoreEntries: req.ignoreEntries } : {},
  );
  if (!inputs) throw invalid({ is: "location" }, "Unknown location.");

  const problems = itemProblems(req.items, loaded, inputs);
  if (problems.length > 0) throw new InvalidError(problems);
  return { loaded, inputs, services: new Map(loaded.services.map((s) => [s.id, s])) };
}

/** What placing items reads: their services at the location, over every day they can reach. */
export function planningQuery(req: {
  locationId: string;
  items: PlanItem[];
  widgetOnly?: boolean;
}) {
  const first = Math.min(...req.items.map((i) => i.start));
  const last = Math.max(...req.items.map((i) => i.start));
  return {
    locationId: req.locationId,
    serviceIds: [...new Set(req.items.flatMap((i) => i.services.map((s) => s.serviceId)))],
    fromDate: shiftDate(utcDate(first), -1),
    toDate: shiftDate(utcDate(last), WINDOW_DAYS),
    ...(req.widgetOnly ? { widgetOnly: true } : {}),
  };
}

/** The service needs a resource the location does not have (it cannot be booked there). */
export const lacksResource = (
  inputs: NonNullable<ReturnType<typeof engineInputs>>,
  serviceId: string,
) => {
  const here = new Set(inputs.resources.map((r) => r.id));
  return inputs.resourcesOf(serviceId).some((r) => !here.has(r));
};

export const LACKS_RESOURCE =
  "The service needs a resource (room, chair or equipment) this location does not have.";

type Loaded = Awaited<ReturnType<typeof loadAvailability>>;

/**
 * What is wrong with the items' services and named staffers: an unknown
 * service, one not offered at the location, or a staffer who may not perform
 * it there (active in the widget, attached to the location and the service).
 */
export function itemProblems(
  items: PlanItem[],
  loaded: Loaded,
  inputs: NonNullable<ReturnType<typeof engineInputs>>,
): Problem<ItemSubject>[] {
  const known = new Map(loaded.services.map((s) => [s.id, s]));
  return items.flatMap((item, i) =>
    item.services.flatMap((s, j): Problem<ItemSubject>[] => {
      const service = { is: "service", item: i, service: j } as const;
      if (!known.has(s.serviceId)) return [problem(service, "Unknown service.")];
      if (!loaded.offeredAt.has(s.serviceId))
        return [problem(service, "The service is not offered at this location.")];
      if (lacksResource(inputs, s.serviceId)) return [problem(service, LACKS_RESOURCE)];
      const capacity = known.get(s.serviceId)?.capacity ?? 1;
      if ((s.quantity ?? 1) > capacity) {
        return [
          problem(
            { is: "quantity", item: i, service: j },
            capacity === 1
              ? "The service takes one person per booking (its capacity is 1)."
              : `May not be greater than the service's capacity (${capacity}).`,
          ),
        ];
      }
      if (s.stafferId && !inputs.performersOf(s.serviceId).some((p) => p.id === s.stafferId)) {
        return [
          problem(
            { is: "staffer", item: i, service: j },
            "The staffer cannot be booked for this service here (active in the booking widget, attached to the location and the service).",
          ),
        ];
      }
      return [];
    }),
  );
}
