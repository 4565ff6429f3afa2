import { z } from "@hono/zod-openapi";
import type { ExternalCalendarRow } from "../../../../db/schema";
import { uuid } from "../../../../platform/fields";
import { toIso } from "../../../../platform/clock";
import { paginated } from "../../../../platform/pagination";

const MAX_URL = 2048;
const MAX_NAME = 100;

export const ExternalCalendarPath = z.object({
  staffer_uuid: uuid("staffer_uuid"),
  external_calendar_uuid: uuid("external_calendar_uuid"),
});

export const CreateExternalCalendarBody = z
  .object({
    url: z.string().max(MAX_URL, `At most ${MAX_URL} characters.`).openapi({
      description:
        "An iCalendar (.ics) URL, http or https (webcal:// is https://). Private, loopback and link-local addresses are refused, also as a redirect's target.",
      example: "https://calendar.example.com/private-3f1c/basic.ics",
      maxLength: MAX_URL,
    }),
    name: z
      .string()
      .trim()
      .min(1, "May not be empty.")
      .max(MAX_NAME, `At most ${MAX_NAME} characters.`)
      .optional()
      .openapi({ example: "Personal", maxLength: MAX_NAME }),
  })
  .openapi("CreateExternalCalendar");

export const ExternalCalendarSchema = z
  .object({
    uuid: z.string(),
    staffer_uuid: z.string(),
    url: z.string(),
    name: z.string().nullable(),
    status: z.enum(["ok", "calendar_unreachable", "calendar_invalid"]).openapi({
      description:
        "How the last sync went: `ok`, or why it failed (the busy time of the last good sync stays).",
    }),
    last_synced_at: z.string().openapi({ example: "2030-03-04T09:00:00Z" }),
    busy_count: z.number().int().openapi({
      description: "Busy intervals held (after merging overlapping events), next 180 days.",
    }),
    skipped_events: z.number().int().openapi({
      description:
        "Events of the last text read that could not be read (a malformed line or value, or a recurrence past its expansion limit) and were left out; the rest of the calendar is busy time.",
    }),
  })
  .openapi("ExternalCalendar");

export const ExternalCalendarSyncSchema = ExternalCalendarSchema.extend({
  conflicts: z.array(z.string()).openapi({
    description:
      "Uuids of existing bookings the calendar's new busy time overlaps. They are not cancelled: staff decide. Empty when the calendar had not changed (304).",
  }),
}).openapi("ExternalCalendarSync");

export const ExternalCalendarList = paginated(ExternalCalendarSchema, "ExternalCalendarList");

type Status = z.infer<typeof ExternalCalendarSchema>["status"];

export const renderExternalCalendar = (
  row: ExternalCalendarRow,
): z.infer<typeof ExternalCalendarSchema> => ({
  uuid: row.id,
  staffer_uuid: row.stafferId,
  url: row.url,
  name: row.name,
  status: row.status as Status,
  last_synced_at: toIso(row.lastSyncedAt),
  busy_count: row.busyCount,
  skipped_events: row.skippedEvents,
});
