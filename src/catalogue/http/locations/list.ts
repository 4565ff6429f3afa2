import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { listLocations } from "../../queries/locations";
import type { PublicEnv } from "../../../http/env";
import { PaginationQuery, pageRequest, paginate } from "../../../platform/pagination";
import { authErrors, json, queryErrors } from "../../../http/responses";
import { LocationList, renderLocation } from "../../views/location";

export const route = defineRoute({
  operationId: "listLocations",
  keys: "publishable",
  method: "get",
  path: "/locations",
  tags: ["Locations"],
  summary: "List the workspace's locations (branches)",
  request: { query: PaginationQuery },
  responses: {
    200: json(LocationList, "A page of locations"),
    ...authErrors,
    ...queryErrors,
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const page = pageRequest(c.req.valid("query"));
  const { rows, total } = await listLocations(c.var.deps.scope, page);
  return c.json(paginate(c.req.url, rows.map(renderLocation), total, page), 200);
};
