import { z } from "@hono/zod-openapi";
import { calendarDate, hhmm, personName, uuid } from "../../../../platform/fields";

export const WeeklyInterval = z
  .object({
    location_uuid: uuid("location_uuid"),
    weekday: z.number().int().min(1).max(7).openapi({ description: "1 = Monday … 7 = Sunday" }),
    start: hhmm,
    end: hhmm,
  })
  .openapi("WeeklyInterval");

export const DateOverride = z
  .object({
    location_uuid: uuid("location_uuid"),
    date: calendarDate,
    intervals: z
      .array(z.object({ start: hhmm, end: hhmm }))
      .max(10, "At most 10 intervals a day.")
      .openapi({ description: "Working hours that day; empty means a day off" }),
  })
  .openapi("DateOverride");

export const ScheduleBody = z
  .object({
    intervals: z.array(WeeklyInterval).max(100, "At most 100 intervals."),
    overrides: z.array(DateOverride).max(500, "At most 500 overrides.").optional(),
  })
  .openapi("StafferSchedule");

export const CreateStafferBody = z
  .object({
    first_name: personName(),
    last_name: personName().optional(),
    email: z.email().optional(),
    location_uuids: z
      .array(uuid("location_uuid"))
      .min(1, "At least 1 location.")
      .max(100, "At most 100 locations."),
    is_active_in_widget: z.boolean().optional(),
    permissions: z
      .array(
        z.string().regex(/^[a-z][a-z0-9-]{0,63}$/, "Must be a permission key such as access-pos."),
      )
      .max(50, "At most 50 permissions.")
      .optional(),
    schedule: z.array(WeeklyInterval).max(100, "At most 100 intervals.").optional(),
    overrides: z.array(DateOverride).max(500, "At most 500 overrides.").optional(),
  })
  .openapi("CreateStaffer");

export const StafferParams = z.object({
  ws: z.uuid({ message: "The workspace id must be a valid UUID." }),
  uuid: uuid("staffer uuid"),
});
