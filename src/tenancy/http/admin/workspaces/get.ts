import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../../http/operations";
import { requireWorkspace } from "../../../queries/workspaces";
import { latestMove } from "../../../../shards/queries/moves";
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
  const [row, move] = await Promise.all([
    requireWorkspace(c.var.directory, ws),
    latestMove(c.var.directory, ws.toLowerCase()),
  ]);
  return c.json(
    {
      ...renderWorkspace(row),
      move: move && { status: move.status, copied_rows: move.copiedRows },
    },
    200,
  );
};
