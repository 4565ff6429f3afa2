import { z } from "@hono/zod-openapi";
import { calendarDate, uuid } from "../../../platform/fields";
import { MAX_REPORT_DAYS } from "../../report-query";

/** A dashboard link's body: the location and, optionally, its period (checked as a report's). */
export const DashboardLinkBody = z
  .object({
    location_uuid: uuid("location_uuid"),
    from: calendarDate
      .optional()
      .openapi({ description: "First day `YYYY-MM-DD`, in the location's zone" }),
    to: calendarDate.optional().openapi({
      description: `Last day (included), on or after from; at most ${MAX_REPORT_DAYS} days in all. Neither: the 30 days ending today; one alone: 30 days from or to it.`,
    }),
  })
  .openapi("DashboardLinkBody");
