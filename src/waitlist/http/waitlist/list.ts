import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { listEntries } from "../../queries/waitlist";
import type { PublicEnv } from "../../../http/env";
import { pageRequest, paginate } from "../../../platform/pagination";
import { authErrors, json, queryErrors } from "../../../http/responses";
import { renderWaitlistEntry } from "../../views/waitlist-entry";
import { ListWaitlistQuery, WaitlistList } from "./schema";

export const route = defineRoute({
  operationId: "listWaitlist",
  keys: "secret",
  method: "get",
  path: "/waitlist",
  tags: ["Waitlist"],
  summary: "List waitlist entries, oldest first (the order offers go in)",
  description: "Filter by status and location. Secret keys only.",
  request: { query: ListWaitlistQuery },
  responses: {
    200: json(WaitlistList, "A page of entries"),
    ...authErrors,
    ...queryErrors,
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const query = c.req.valid("query");
  const page = pageRequest(query);
  const { rows, total } = await listEntries(c.var.deps.scope, page, {
    status: query.status,
    locationId: query.location_uuid,
  });
  return c.json(paginate(c.req.url, rows.map(renderWaitlistEntry), total, page), 200);
};
