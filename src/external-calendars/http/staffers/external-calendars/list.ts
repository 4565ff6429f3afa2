import type { RouteHandler } from "@hono/zod-openapi";
import { listExternalCalendars } from "../../../queries/external-calendars";
import type { PublicEnv } from "../../../../http/env";
import { notFound } from "../../../../platform/errors";
import { defineRoute } from "../../../../http/operations";
import { PaginationQuery, pageRequest, paginate } from "../../../../platform/pagination";
import { authErrors, json, notFoundError, queryErrors } from "../../../../http/responses";
import { StafferPath } from "../../../../calendar/http/blocked-spots/schema";
import { ExternalCalendarList, renderExternalCalendar } from "./schema";

export const route = defineRoute({
  operationId: "listStafferExternalCalendars",
  keys: "secret",
  method: "get",
  path: "/staffers/{staffer_uuid}/external-calendars",
  tags: ["Staff calendar"],
  summary: "List a staffer's external calendars",
  description: "In the order they were added, with how the last sync went.",
  request: { params: StafferPath, query: PaginationQuery },
  responses: {
    200: json(ExternalCalendarList, "A page of external calendars"),
    ...authErrors,
    ...queryErrors,
    ...notFoundError("staffer"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { staffer_uuid: stafferId } = c.req.valid("param");
  const page = pageRequest(c.req.valid("query"));
  const { found, rows, total } = await listExternalCalendars(c.var.deps.scope, stafferId, page);
  if (!found) throw notFound("Staffer");
  return c.json(paginate(c.req.url, rows.map(renderExternalCalendar), total, page), 200);
};
