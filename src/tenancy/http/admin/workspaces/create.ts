import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../../http/operations";
import { insertApiKey } from "../../../queries/api-keys";
import { insertWorkspace, type WorkspaceSeed } from "../../../queries/workspaces";
import type { AdminEnv } from "../../../../http/env";
import { authErrors, bodyErrors, json, jsonBody } from "../../../../http/responses";
import { CreatedWorkspaceSchema, CreateWorkspaceBody, renderWorkspace } from "./schema";

export const route = defineRoute({
  operationId: "createWorkspace",
  keys: "admin",
  method: "post",
  path: "/workspaces",
  tags: ["Workspaces"],
  summary: "Create a workspace (returns its first API key once)",
  request: jsonBody(CreateWorkspaceBody),
  responses: {
    201: json(CreatedWorkspaceSchema, "Created"),
    ...authErrors,
    ...bodyErrors,
  },
});

/** The handler, writing what `seed` gives every new workspace in the workspace's own batch. */
export const seeding =
  (seed: WorkspaceSeed): RouteHandler<typeof route, AdminEnv> =>
  async (c) => {
    const body = c.req.valid("json");
    const id = crypto.randomUUID();
    const createdAt = Date.now();
    const row = {
      id,
      createdAt,
      ...body,
      locale: body.locale ?? "en",
      brandName: null,
      brandLogoUrl: null,
      brandAccentColor: null,
    };
    const db = c.var.db;
    const key = await insertApiKey(db, id, createdAt);
    // Workspace, its key and its seeded rows (default statuses) land together or not at all.
    await db.batch([insertWorkspace(db, row), key.statement, ...seed(db, id, createdAt)]);
    return c.json({ ...renderWorkspace(row), api_key: key.apiKey }, 201);
  };
