import { z } from "@hono/zod-openapi";

const Interval = z
  .object({
    booking_uuid: z.uuid().optional(),
    blocked_spot_uuid: z.uuid().optional(),
    reservation_uuid: z.uuid().optional(),
    external_calendar_uuid: z
      .uuid()
      .optional()
      .openapi({ description: "Busy time of one of the staffer's external calendars." }),
    starts_at: z.string().openapi({ example: "2030-03-04T09:00:00Z" }),
    ends_at: z.string().openapi({ example: "2030-03-04T10:00:00Z" }),
  })
  .openapi("CalendarInterval");

export const CalendarAuditSchema = z
  .object({
    in_sync: z.boolean().openapi({
      description: "The staffer's calendar object holds exactly the busy time D1 records.",
    }),
    only_in_calendar: z.array(Interval).openapi({
      description: "Time the calendar object keeps busy that no D1 row records.",
    }),
    only_in_d1: z.array(Interval).openapi({
      description: "Busy time D1 records that the calendar object does not hold.",
    }),
  })
  .openapi("CalendarAudit");
