import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../../http/operations";
import { requireWorkspace } from "../../../../tenancy/queries/workspaces";
import { insertLocation } from "../../../queries/locations";
import type { AdminEnv } from "../../../../http/env";
import {
  authErrors,
  bodyErrors,
  json,
  jsonBody,
  workspaceNotFound,
} from "../../../../http/responses";
import { LocationSchema, renderLocation } from "../../../views/location";
import { WorkspaceParams } from "../../../../tenancy/http/admin/workspaces/schema";
import { CreateLocationBody, locationChanges } from "./schema";

export const route = defineRoute({
  operationId: "createWorkspaceLocation",
  keys: "admin",
  method: "post",
  path: "/workspaces/{ws}/locations",
  tags: ["Locations"],
  summary: "Create a location (branch)",
  request: { params: WorkspaceParams, ...jsonBody(CreateLocationBody) },
  responses: {
    201: json(LocationSchema, "Created"),
    ...authErrors,
    ...bodyErrors,
    ...workspaceNotFound(),
  },
});

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const { ws } = c.req.valid("param");
  const body = c.req.valid("json");
  const workspace = await requireWorkspace(c.var.db, ws);
  const [row] = await insertLocation(c.var.db, {
    id: crypto.randomUUID(),
    workspaceId: workspace.id,
    ...locationChanges(body),
    name: body.name,
    timezone: body.timezone,
    createdAt: Date.now(),
  });
  if (!row) throw new Error("insert returned no row");
  return c.json(renderLocation(row), 201);
};
