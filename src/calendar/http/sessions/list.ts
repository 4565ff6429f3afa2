import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { listSessions } from "../../queries/sessions";
import type { PublicEnv } from "../../../http/env";
import { pageRequest, paginate } from "../../../platform/pagination";
import { authErrors, json, queryErrors } from "../../../http/responses";
import { renderSession, SessionList } from "../../views/session";
import { ListSessionsQuery } from "./schema";

export const route = defineRoute({
  operationId: "listSessions",
  keys: "secret",
  method: "get",
  path: "/sessions",
  tags: ["Sessions"],
  summary: "List the group sessions of a location",
  description:
    "A session is a group service (capacity > 1) at one start with one staffer: every live booking of it there takes `quantity` seats of it. Listed by start (then staffer, service) with the seats taken and the bookings; only sessions with at least one live booking. An unknown location (or another workspace's) lists nothing. Secret keys only.",
  request: { query: ListSessionsQuery },
  responses: {
    200: json(SessionList, "A page of sessions"),
    ...authErrors,
    ...queryErrors,
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const query = c.req.valid("query");
  const page = pageRequest(query);
  const { rows, total } = await listSessions(c.var.deps.scope, page, {
    locationId: query.location_uuid,
    serviceId: query.service_uuid,
    from: query.from,
    to: query.to,
  });
  return c.json(paginate(c.req.url, rows.map(renderSession), total, page), 200);
};
