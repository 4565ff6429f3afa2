import type { RouteHandler } from "@hono/zod-openapi";
import type { z } from "@hono/zod-openapi";
import { defineRoute } from "../../../../http/operations";
import { updateWorkspace, type WorkspaceChanges } from "../../../queries/workspaces";
import type { AdminEnv } from "../../../../http/env";
import {
  authErrors,
  bodyErrors,
  json,
  jsonBody,
  workspaceNotFound,
} from "../../../../http/responses";
import { renderWorkspace, UpdateWorkspaceBody, WorkspaceParams, WorkspaceSchema } from "./schema";

export const route = defineRoute({
  operationId: "updateWorkspace",
  keys: "admin",
  method: "patch",
  path: "/workspaces/{ws}",
  tags: ["Workspaces"],
  summary: "Update a workspace (partial): its name and its brand",
  description:
    "Only the fields sent change. `brand` is what the booking pages (widget, manage page, offer page) show of the salon: its name (else the location's), a logo (https: only) and an accent colour, which must reach a WCAG 2 contrast of 4.5:1 against white (else 422 on `brand.accent_color`). Within `brand`, `name` is always sent and `logo_url` / `accent_color` change only when sent; `brand: null` removes the brand with its logo and colour. A refused body changes nothing.",
  request: { params: WorkspaceParams, ...jsonBody(UpdateWorkspaceBody) },
  responses: {
    200: json(WorkspaceSchema, "The workspace as it now is"),
    ...authErrors,
    ...bodyErrors,
    ...workspaceNotFound(),
  },
});

/** Body fields → workspace columns, only those sent (a removed brand clears all three). */
function workspaceChanges(body: z.infer<typeof UpdateWorkspaceBody>): WorkspaceChanges {
  const changes: WorkspaceChanges = {};
  if (body.name !== undefined) changes.name = body.name;
  if (body.brand === null) {
    changes.brandName = null;
    changes.brandLogoUrl = null;
    changes.brandAccentColor = null;
  } else if (body.brand !== undefined) {
    changes.brandName = body.brand.name;
    if (body.brand.logo_url !== undefined) changes.brandLogoUrl = body.brand.logo_url;
    if (body.brand.accent_color !== undefined) changes.brandAccentColor = body.brand.accent_color;
  }
  return changes;
}

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const { ws } = c.req.valid("param");
  const changes = workspaceChanges(c.req.valid("json"));
  // The shard's copy first (its queries join it; refused while a move has writes paused),
  // then the directory's, which answers: a retry after a failure between them converges.
  await updateWorkspace(c.var.db, ws, changes);
  const row = await updateWorkspace(c.var.directory, ws, changes);
  return c.json(renderWorkspace(row), 200);
};
