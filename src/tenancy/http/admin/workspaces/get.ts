import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../../http/operations";
import { requireWorkspace } from "../../../queries/workspaces";
import type { AdminEnv } from "../../../../http/env";
import { authErrors, json, queryErrors, workspaceNotFound } from "../../../../http/responses";
import { renderWorkspace, WorkspaceParams, WorkspaceSchema } from "./schema";

export const route = defineRoute({
  operationId: "getWorkspace",
  keys: "admin",
  method: "get",
  path: "/workspaces/{ws}",
  tags: ["Workspaces"],
  summary: "Get a workspace (its API keys are never shown again)",
  request: { params: WorkspaceParams },
  responses: {
    200: json(WorkspaceSchema, "The workspace"),
    ...authErrors,
    ...queryErrors,
    ...workspaceNotFound(),
  },
});

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const { ws } = c.req.valid("param");
  return c.json(renderWorkspace(await requireWorkspace(c.var.directory, ws)), 200);
};
