import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { requireWorkspace } from "../../../db/queries/workspaces";
import { locations } from "../../../db/schema";
import type { AdminEnv } from "../../../env";
import { nonEmpty, timezone } from "../../../lib/fields";
import { authErrors, bodyErrors, json, jsonBody, workspaceNotFound } from "../../../lib/responses";
import { LocationSchema, renderLocation } from "../../../views/location";
import { WorkspaceParams } from "../workspaces/schema";

const CreateLocationBody = z
  .object({
    name: nonEmpty(),
    timezone,
    slot_step: z.number().int().min(5).max(240).optional(),
    min_notice: z
      .number()
      .int()
      .min(0)
      .max(60 * 24 * 365)
      .optional(),
  })
  .openapi("CreateLocation");

export const route = createRoute({
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
  const [row] = await c.var.db
    .insert(locations)
    .values({
      id: crypto.randomUUID(),
      workspaceId: workspace.id,
      name: body.name,
      timezone: body.timezone,
      slotStep: body.slot_step ?? 15,
      minNotice: body.min_notice ?? 0,
      createdAt: Date.now(),
    })
    .returning();
  if (!row) throw new Error("insert returned no row");
  return c.json(renderLocation(row), 201);
};
