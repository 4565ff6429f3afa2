import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../../http/operations";
import type { AdminEnv } from "../../../../http/env";
import {
  authErrors,
  bodyErrors,
  json,
  jsonBody,
  workspaceNotFound,
} from "../../../../http/responses";
import { type FieldNames, withFields } from "../../../../http/request-fields";
import { createResource, type NewResourceSubject } from "../../../resources/create";
import { renderResource, ResourceSchema } from "../../../views/resource";
import { WorkspaceParams } from "../../../../tenancy/http/admin/workspaces/schema";
import { CreateResourceBody } from "./schema";
import { workspaceDeps } from "../../../../http/admin-deps";

export const route = defineRoute({
  operationId: "createWorkspaceResource",
  keys: "admin",
  method: "post",
  path: "/workspaces/{ws}/resources",
  tags: ["Resources"],
  summary: "Create a resource (room, chair, equipment) at a location",
  description:
    "Each of the resource's `quantity` units serves one booking at a time. A service that lists the resource among its `resource_uuids` needs one free unit for its whole duration and buffer. The quantity is fixed at creation.",
  request: { params: WorkspaceParams, ...jsonBody(CreateResourceBody) },
  responses: {
    201: json(ResourceSchema, "Created"),
    ...authErrors,
    ...bodyErrors,
    ...workspaceNotFound(),
  },
});

const FIELDS: FieldNames<NewResourceSubject> = { location: "location_uuid" };

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const { ws } = c.req.valid("param");
  const body = c.req.valid("json");
  const row = await withFields(FIELDS, () =>
    createResource(workspaceDeps(c, ws).scope, {
      locationId: body.location_uuid,
      name: body.name,
      kind: body.kind,
      quantity: body.quantity,
    }),
  );
  return c.json(renderResource(row), 201);
};
