import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../../http/operations";
import { listWorkspaceResources } from "../../../queries/resources";
import type { AdminEnv } from "../../../../http/env";
import { pageRequest, paginate } from "../../../../platform/pagination";
import { authErrors, json, queryErrors, workspaceNotFound } from "../../../../http/responses";
import { renderResource, ResourceList } from "../../../views/resource";
import { WorkspaceParams } from "../../../../tenancy/http/admin/workspaces/schema";
import { ListResourcesQuery } from "./schema";
import { workspaceDeps } from "../../../../http/admin-deps";

export const route = defineRoute({
  operationId: "listWorkspaceResources",
  keys: "admin",
  method: "get",
  path: "/workspaces/{ws}/resources",
  tags: ["Resources"],
  summary: "List a workspace's resources",
  request: { params: WorkspaceParams, query: ListResourcesQuery },
  responses: {
    200: json(ResourceList, "A page of resources, oldest first"),
    ...authErrors,
    ...queryErrors,
    ...workspaceNotFound(),
  },
});

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const { ws } = c.req.valid("param");
  const query = c.req.valid("query");
  const page = pageRequest(query);
  const { rows, total } = await listWorkspaceResources(
    workspaceDeps(c, ws).scope,
    page,
    query.location_uuid,
  );
  return c.json(paginate(c.req.url, rows.map(renderResource), total, page), 200);
};
