import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { requireWorkspace } from "../../../db/queries/workspaces";
import { locations } from "../../../db/schema";
import type { AdminEnv } from "../../../env";
import { authErrors, bodyErrors, json, jsonBody, workspaceNotFound } from "../../../lib/responses";
import { LocationSchema, renderLocation } from "../../../views/location";
import { WorkspaceParams } from "../workspaces/schema";
import { LocationFields } from "./schema";

const CreateLocationBody = z
  .object({
    name: LocationFields.name,
    timezone: LocationFields.timezone,
    slot_step: LocationFields.slot_step.optional(),
    min_notice: LocationFields.min_notice.optional(),
    cancellation_offset: LocationFields.cancellation_offset.optional(),
    change_offset: LocationFields.change_offset.optional(),
    policy_text: LocationFields.policy_text.optional(),
    cancellation_text: LocationFields.cancellation_text.optional(),
    change_text: LocationFields.change_text.optional(),
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
      cancellationOffset: body.cancellation_offset ?? 0,
      changeOffset: body.change_offset ?? 0,
      policyText: body.policy_text ?? null,
      cancellationText: body.cancellation_text ?? null,
      changeText: body.change_text ?? null,
      createdAt: Date.now(),
    })
    .returning();
  if (!row) throw new Error("insert returned no row");
  return c.json(renderLocation(row), 201);
};
