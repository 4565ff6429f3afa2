import type { RouteHandler } from "@hono/zod-openapi";
import { listExternalCalendars } from "../../../../db/queries/external-calendars";
import type { PublicEnv } from "../../../../env";
import { defineRoute } from "../../../../lib/operations";
import { PaginationQuery, pageRequest, paginate } from "../../../../lib/pagination";
import { authErrors, json, queryErrors } from "../../../../lib/responses";
import { StafferPath } from "../../blocked-spots/schema";
import { ExternalCalendarList, renderExternalCalendar } from "./schema";

export const route = defineRoute({
  operationId: "listStafferExternalCalendars",
  keys: "secret",
  method: "get",
  path: "/staffers/{staffer_uuid}/external-calendars",
  tags: ["Staff calendar"],
  summary: "List a staffer's external calendars",
  description:
    "In the order they were added. An unknown staffer, or another workspace's, has none (an empty page).",
  request: { params: StafferPath, query: PaginationQuery },
  responses: {
    200: json(ExternalCalendarList, "A page of external calendars"),
    ...authErrors,
    ...queryErrors,
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { staffer_uuid: stafferId } = c.req.valid("param");
  const page = pageRequest(c.req.valid("query"));
  const { rows, total } = await listExternalCalendars(c.var.deps.scope, stafferId, page);
  return c.json(paginate(c.req.url, rows.map(renderExternalCalendar), total, page), 200);
};
