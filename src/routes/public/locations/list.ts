import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { asc } from "drizzle-orm";
import { listPage } from "../../../db/queries/list";
import { locations } from "../../../db/schema";
import { whereIn } from "../../../db/scope";
import type { AppEnv } from "../../../env";
import { PaginationQuery, pageRequest, paginate } from "../../../lib/pagination";
import { errorResponses, json } from "../../../lib/responses";
import { LocationList, renderLocation } from "../../../views/location";

export const route = createRoute({
  method: "get",
  path: "/locations",
  tags: ["Locations"],
  summary: "List the workspace's locations (branches)",
  request: { query: PaginationQuery },
  responses: { 200: json(LocationList, "A page of locations"), ...errorResponses },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const page = pageRequest(c.req.valid("query"));
  const scope = c.var.scope;
  const { rows, total } = await listPage(
    scope.db,
    locations,
    whereIn(scope, locations),
    [asc(locations.createdAt), asc(locations.id)],
    page,
  );
  return c.json(paginate(c.req.url, rows.map(renderLocation), total, page), 200);
};
