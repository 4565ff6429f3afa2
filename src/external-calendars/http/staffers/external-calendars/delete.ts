import type { RouteHandler } from "@hono/zod-openapi";
import type { PublicEnv } from "../../../../http/env";
import { removeExternalCalendar } from "../../../sync";
import { defineRoute } from "../../../../http/operations";
import { authErrors, notFoundError, queryErrors } from "../../../../http/responses";
import { ExternalCalendarPath } from "./schema";

export const route = defineRoute({
  operationId: "deleteStafferExternalCalendar",
  keys: "secret",
  method: "delete",
  path: "/staffers/{staffer_uuid}/external-calendars/{external_calendar_uuid}",
  tags: ["Staff calendar"],
  summary: "Remove an external calendar and its busy time",
  description: "Its busy time is free for booking again at once; it is no longer fetched.",
  request: { params: ExternalCalendarPath },
  responses: {
    204: { description: "Removed; empty body" },
    ...authErrors,
    ...queryErrors,
    ...notFoundError("staffer or external calendar"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { staffer_uuid: stafferId, external_calendar_uuid: id } = c.req.valid("param");
  await removeExternalCalendar(c.var.deps, stafferId, id);
  return c.body(null, 204);
};
