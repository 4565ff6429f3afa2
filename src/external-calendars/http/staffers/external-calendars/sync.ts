import type { RouteHandler } from "@hono/zod-openapi";
import type { PublicEnv } from "../../../../http/env";
import { syncExternalCalendar } from "../../../sync";
import { now } from "../../../../platform/clock";
import { defineRoute } from "../../../../http/operations";
import {
  authErrors,
  conflictErrors,
  errorCodes,
  json,
  notFoundError,
} from "../../../../http/responses";
import { ExternalCalendarPath, ExternalCalendarSyncSchema, renderExternalCalendar } from "./schema";

export const route = defineRoute({
  operationId: "syncStafferExternalCalendar",
  keys: "secret",
  method: "post",
  path: "/staffers/{staffer_uuid}/external-calendars/{external_calendar_uuid}/sync",
  tags: ["Staff calendar"],
  summary: "Fetch an external calendar again now",
  description:
    "Sends the last ETag (If-None-Match): a 304 keeps the busy time and only moves `last_synced_at`. A new text replaces the calendar's busy time as a whole, at once for every booking. When the fetch or the reading fails, the busy time of the last good sync stays, `status` records why, and the answer is 422.",
  request: { params: ExternalCalendarPath },
  responses: {
    200: json(ExternalCalendarSyncSchema, "Synced"),
    ...authErrors,
    422: errorCodes(
      "A path parameter is invalid, or the calendar could not be fetched or read (its busy time stays as it was)",
      ["validation_failed", "calendar_unreachable", "calendar_invalid"],
    ),
    ...notFoundError("staffer or external calendar"),
    ...conflictErrors(),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { staffer_uuid: stafferId, external_calendar_uuid: id } = c.req.valid("param");
  const { row, conflicts } = await syncExternalCalendar(c.var.deps, stafferId, id, now());
  return c.json({ ...renderExternalCalendar(row), conflicts }, 200);
};
