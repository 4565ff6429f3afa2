import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../../http/operations";
import { updateLocation } from "../../../queries/locations";
import { requireWorkspace } from "../../../../tenancy/queries/workspaces";
import type { AdminEnv } from "../../../../http/env";
import { notFound } from "../../../../platform/errors";
import {
  authErrors,
  bodyErrors,
  json,
  jsonBody,
  workspaceNotFound,
} from "../../../../http/responses";
import { LocationSchema, renderLocation } from "../../../views/location";
import { locationChanges, LocationParams, UpdateLocationBody } from "./schema";

export const route = defineRoute({
  operationId: "updateWorkspaceLocation",
  keys: "admin",
  method: "patch",
  path: "/workspaces/{ws}/locations/{uuid}",
  tags: ["Locations"],
  summary: "Update a location (partial): its rules and its booking policy",
  description:
    "Only the fields sent change; a text set to null is cleared. cancellation_offset and change_offset are minutes before a booking's start after which requests made with a publishable key may no longer cancel or reschedule it (409 policy_window_passed); 0 means no limit. Secret keys are never held to them. Every booking's `policy` object shows these values.",
  request: { params: LocationParams, ...jsonBody(UpdateLocationBody) },
  responses: {
    200: json(LocationSchema, "The location as it now is"),
    ...authErrors,
    ...bodyErrors,
    ...workspaceNotFound("location"),
  },
});

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const { ws, uuid } = c.req.valid("param");
  const body = c.req.valid("json");
  const workspace = await requireWorkspace(c.var.db, ws);
  const row = await updateLocation(c.var.db, workspace.id, uuid, locationChanges(body));
  if (!row) throw notFound("Location");
  return c.json(renderLocation(row), 200);
};
