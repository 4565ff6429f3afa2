import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { requireWorkspace } from "../../queries/workspaces";
import type { PublicEnv } from "../../../http/env";
import { authErrors, json } from "../../../http/responses";
import { PublicWorkspaceSchema, renderPublicWorkspace } from "../../views/public-workspace";

export const route = defineRoute({
  operationId: "getCurrentWorkspace",
  keys: "publishable",
  method: "get",
  path: "/workspace",
  tags: ["Workspace"],
  summary: "The workspace the key belongs to: its name, language, currency and brand",
  description:
    "What a booking widget shows of the salon before a location is chosen: the brand's name (else the workspace's own name), logo and accent colour, which the workspace's management sets (PATCH /api/admin/v1/workspaces/{ws}). Allowed for publishable keys.",
  responses: {
    200: json(PublicWorkspaceSchema, "The workspace"),
    ...authErrors,
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) =>
  c.json(renderPublicWorkspace(await requireWorkspace(c.var.db, c.var.workspace.id)), 200);
