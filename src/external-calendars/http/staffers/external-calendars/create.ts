import type { RouteHandler } from "@hono/zod-openapi";
import type { PublicEnv } from "../../../../http/env";
import { addExternalCalendar, type ExternalCalendarSubject } from "../../../sync";
import { now } from "../../../../platform/clock";
import { defineRoute } from "../../../../http/operations";
import { type FieldNames, withFields } from "../../../../http/request-fields";
import {
  authErrors,
  bodyErrors,
  conflictErrors,
  errorCodes,
  json,
  jsonBody,
  notFoundError,
} from "../../../../http/responses";
import { StafferPath } from "../../../../calendar/http/blocked-spots/schema";
import { assertWebhookUrl } from "../../../../webhooks/http/webhooks/url-check";
import {
  CreateExternalCalendarBody,
  ExternalCalendarSyncSchema,
  renderExternalCalendar,
} from "./schema";

export const route = defineRoute({
  operationId: "createStafferExternalCalendar",
  keys: "secret",
  method: "post",
  path: "/staffers/{staffer_uuid}/external-calendars",
  tags: ["Staff calendar"],
  summary: "Add an external calendar whose events block the staffer's time",
  description:
    "Fetches the ICS URL before answering (at most 2 MB, 10 s) and reads its events of the next 180 days as busy time: time-slot search hides it, and a booking, reschedule or staffer change onto it is refused (409 slot_unavailable). All-day events block the whole day in the zone of the staffer's first location; transparent and cancelled events do not block. The calendar is fetched again every 15 minutes and on POST …/sync. Existing bookings the busy time overlaps are listed in `conflicts`, never cancelled. A calendar that cannot be fetched or read is refused and nothing is kept.",
  request: { params: StafferPath, ...jsonBody(CreateExternalCalendarBody) },
  responses: {
    201: json(ExternalCalendarSyncSchema, "Added, with its busy time"),
    ...authErrors,
    ...bodyErrors,
    422: errorCodes(
      "A field is invalid (the URL's scheme or address, a staffer who works at no location); the calendar could not be fetched (refused connection, no answer within 10 s, an answer other than 200) or read (not iCalendar, larger than 2 MB, more than 5,000 busy occurrences in 180 days); nothing is kept",
      ["validation_failed", "calendar_unreachable", "calendar_invalid"],
    ),
    ...notFoundError("staffer"),
    ...conflictErrors(),
  },
});

const FIELDS: FieldNames<ExternalCalendarSubject> = { staffer: "staffer_uuid" };

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { staffer_uuid: stafferId } = c.req.valid("param");
  const body = c.req.valid("json");
  const url = body.url.replace(/^webcals?:\/\//i, "https://");
  assertWebhookUrl(c.env, url);
  const { row, conflicts } = await withFields(FIELDS, () =>
    addExternalCalendar(c.var.deps, stafferId, { url, name: body.name }, now()),
  );
  return c.json({ ...renderExternalCalendar(row), conflicts }, 201);
};
