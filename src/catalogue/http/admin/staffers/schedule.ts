import type { RouteHandler, z } from "@hono/zod-openapi";
import { defineRoute } from "../../../../http/operations";
import type { AdminEnv } from "../../../../http/env";
import {
  authErrors,
  bodyErrors,
  json,
  jsonBody,
  workspaceNotFound,
} from "../../../../http/responses";
import { withFields } from "../../../../http/request-fields";
import { replaceStafferSchedule } from "../../../staffers/schedule";
import { scheduleFields } from "./fields";
import { ScheduleBody, StafferParams } from "./schema";
import { workspaceDeps } from "../../../../http/admin-deps";

export const route = defineRoute({
  operationId: "setWorkspaceStafferSchedule",
  keys: "admin",
  method: "put",
  path: "/workspaces/{ws}/staffers/{uuid}/schedule",
  tags: ["Staffers"],
  summary: "Replace a staffer's weekly schedule and date overrides",
  request: { params: StafferParams, ...jsonBody(ScheduleBody) },
  responses: {
    200: json(ScheduleBody, "The schedule now in force"),
    ...authErrors,
    ...bodyErrors,
    ...workspaceNotFound("staffer"),
  },
});

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const { ws, uuid } = c.req.valid("param");
  const body = c.req.valid("json");
  const { intervals, overrides } = await withFields(scheduleFields("intervals"), () =>
    replaceStafferSchedule(workspaceDeps(c, ws).scope, uuid, {
      intervals: body.intervals,
      overrides: body.overrides,
    }),
  );
  return c.json({ intervals, overrides } satisfies z.infer<typeof ScheduleBody>, 200);
};
