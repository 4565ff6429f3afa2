import type { ScheduleSubject } from "../../../rules/schedule";
import type { FieldNames } from "../../../../http/request-fields";

/**
 * A schedule's parts in a body whose weekly intervals are the list `weekly`
 * (`intervals` on PUT …/schedule, `schedule` on a new staffer).
 */
export const scheduleFields = (weekly: string): FieldNames<ScheduleSubject> => ({
  interval: ({ interval }) => `${weekly}.${interval}`,
  "interval location": ({ interval }) => `${weekly}.${interval}.location_uuid`,
  "override location": ({ override }) => `overrides.${override}.location_uuid`,
  "override date": ({ override }) => `overrides.${override}.date`,
  "override interval": ({ override, interval }) => `overrides.${override}.intervals.${interval}`,
});
