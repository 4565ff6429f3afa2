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
import { createStaffer, type NewStafferSubject } from "../../../staffers/create";
import { renderStaffer, StafferSchema } from "../../../views/staffer";
import { WorkspaceParams } from "../../../../tenancy/http/admin/workspaces/schema";
import { scheduleFields } from "./fields";
import { CreateStafferBody } from "./schema";
import { workspaceDeps } from "../../../../http/admin-deps";

const FIELDS: FieldNames<NewStafferSubject> = {
  locations: "location_uuids",
  ...scheduleFields("schedule"),
};

export const route = defineRoute({
  operationId: "createWorkspaceStaffer",
  keys: "admin",
  method: "post",
  path: "/workspaces/{ws}/staffers",
  tags: ["Staffers"],
  summary: "Create a staffer with locations, weekly schedule and date overrides",
  request: { params: WorkspaceParams, ...jsonBody(CreateStafferBody) },
  responses: {
    201: json(StafferSchema, "Created"),
    ...authErrors,
    ...bodyErrors,
    ...workspaceNotFound(),
  },
});

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const { ws } = c.req.valid("param");
  const body = c.req.valid("json");
  const { row, locationIds } = await withFields(FIELDS, () =>
    createStaffer(workspaceDeps(c, ws).scope, {
      firstName: body.first_name,
      lastName: body.last_name,
      email: body.email,
      locationIds: body.location_uuids,
      isActiveInWidget: body.is_active_in_widget,
      permissions: body.permissions,
      schedule: body.schedule,
      overrides: body.overrides,
    }),
  );
  return c.json(renderStaffer(row, locationIds), 201);
};
