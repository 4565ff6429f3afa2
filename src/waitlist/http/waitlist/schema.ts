import { z } from "@hono/zod-openapi";
import { calendarDate, hhmm, nonEmpty, personName, uuid } from "../../../platform/fields";
import { PaginationQuery, paginated } from "../../../platform/pagination";
import { WAITLIST_STATUSES } from "../../../db/schema";
import { WAITLIST } from "../../rules";
import { WaitlistEntrySchema } from "../../views/waitlist-entry";

export const JoinWaitlistBody = z
  .object({
    location_uuid: uuid("location_uuid"),
    services: z
      .array(
        z.object({
          service_uuid: uuid("service_uuid"),
          staffer_uuid: uuid("staffer_uuid")
            .optional()
            .openapi({ description: "This staffer only; left out: anyone who performs it" }),
        }),
      )
      .min(1, "At least one service.")
      .max(WAITLIST.maxServices, `At most ${WAITLIST.maxServices} services.`)
      .openapi({ description: "Run back to back, as the services of a cart item" }),
    customer_phone: nonEmpty(64),
    customer_first_name: personName(),
    customer_email: z.email("Must be a valid e-mail address.").max(320).optional(),
    customer_browser_language: z
      .string()
      .max(35)
      .optional()
      .openapi({ description: "The language the offer's message is written in" }),
    from: calendarDate.openapi({ description: "First local date wanted" }),
    to: calendarDate.openapi({
      description: `Last local date wanted, at most ${WAITLIST.maxWindowDays} days after from, not before the location's today`,
    }),
    times: z
      .array(z.object({ start: hhmm, end: hhmm }))
      .max(WAITLIST.maxTimes, `At most ${WAITLIST.maxTimes} time windows.`)
      .optional()
      .openapi({
        description:
          "Local times of day the whole visit must lie within (any one of them); left out: any time the location works",
      }),
  })
  .openapi("JoinWaitlist");

export const EntryPath = z.object({ entry_uuid: uuid("entry_uuid") });

export const ListWaitlistQuery = PaginationQuery.extend({
  status: z.enum(WAITLIST_STATUSES).optional(),
  location_uuid: uuid("location_uuid").optional(),
});

export const WaitlistList = paginated(WaitlistEntrySchema, "WaitlistEntryList");
