import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { listResources } from "../../queries/resources";
import type { PublicEnv } from "../../../http/env";
import { uuid } from "../../../platform/fields";
import { PaginationQuery, pageRequest, paginate } from "../../../platform/pagination";
import { authErrors, json, queryErrors } from "../../../http/responses";
import { renderResource, ResourceList } from "../../views/resource";

const ListResourcesQuery = PaginationQuery.extend({
  location_uuid: uuid("location_uuid")
    .optional()
    .openapi({ description: "Only the resources of this location" }),
});

export const route = defineRoute({
  operationId: "listResources",
  keys: "publishable",
  method: "get",
  path: "/resources",
  tags: ["Resources"],
  summary: "List the workspace's resources (rooms, chairs, equipment)",
  description:
    "Resources are created through the management API. A service lists the resources it needs in `resource_uuids`.",
  request: { query: ListResourcesQuery },
  responses: {
    200: json(ResourceList, "A page of resources, oldest first"),
    ...authErrors,
    ...queryErrors,
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const query = c.req.valid("query");
  const page = pageRequest(query);
  const { rows, total } = await listResources(c.var.deps.scope, page, query.location_uuid);
  return c.json(paginate(c.req.url, rows.map(renderResource), total, page), 200);
};
