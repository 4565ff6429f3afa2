import { type RouteHandler, z } from "@hono/zod-openapi";
import { defineRoute } from "../../../../http/operations";
import { requireWorkspace } from "../../../../tenancy/queries/workspaces";
import { insertBookingStatus } from "../../../queries/booking-statuses";
import type { AdminEnv } from "../../../../http/env";
import { nonEmpty } from "../../../../platform/fields";
import {
  authErrors,
  bodyErrors,
  json,
  jsonBody,
  workspaceNotFound,
} from "../../../../http/responses";
import { BookingStatusSchema, renderBookingStatus } from "../../../views/booking-status";
import { WorkspaceParams } from "../../../../tenancy/http/admin/workspaces/schema";

const CreateBookingStatusBody = z
  .object({
    name: nonEmpty(100),
    // Integrations switch on the type, so it is a stable machine key; the name is free text.
    type: z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,31}$/, "Must be a lowercase key such as confirmed or no_show.")
      .openapi({ example: "no_show" }),
  })
  .openapi("CreateBookingStatus");

export const route = defineRoute({
  operationId: "createWorkspaceBookingStatus",
  keys: "admin",
  method: "post",
  path: "/workspaces/{ws}/booking-statuses",
  tags: ["Booking statuses"],
  summary: "Add a booking status to a workspace",
  request: { params: WorkspaceParams, ...jsonBody(CreateBookingStatusBody) },
  responses: {
    201: json(BookingStatusSchema, "Created"),
    ...authErrors,
    ...bodyErrors,
    ...workspaceNotFound(),
  },
});

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const { ws } = c.req.valid("param");
  const body = c.req.valid("json");
  const workspace = await requireWorkspace(c.var.db, ws);
  const [row] = await insertBookingStatus(c.var.db, {
    id: crypto.randomUUID(),
    workspaceId: workspace.id,
    name: body.name,
    type: body.type,
    createdAt: Date.now(),
  });
  if (!row) throw new Error("insert returned no row");
  return c.json(renderBookingStatus(row), 201);
};
