import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../../http/operations";
import type { AdminEnv } from "../../../../http/env";
import { authErrors, json, queryErrors, workspaceNotFound } from "../../../../http/responses";
import { auditResourceCalendars } from "../../../resource-audit";
import { ResourceParams } from "../../../../catalogue/http/admin/resources/schema";
import { ResourceCalendarAuditSchema } from "./schema";
import { workspaceDeps } from "../../../../http/admin-deps";

const description =
  "Each unit of a resource is a calendar: its busy time lives in D1 (the record) and in the unit's calendar object (which decides claims). At rest both hold the same intervals. Every unit is compared at once.";

export const auditRoute = defineRoute({
  operationId: "listWorkspaceResourceCalendar",
  keys: "admin",
  method: "get",
  path: "/workspaces/{ws}/resources/{uuid}/calendar",
  tags: ["Resources"],
  summary: "Compare each unit's calendar object with D1",
  description,
  request: { params: ResourceParams },
  responses: {
    200: json(ResourceCalendarAuditSchema, "The comparison, unit by unit"),
    ...authErrors,
    ...queryErrors,
    ...workspaceNotFound("resource"),
  },
});

export const rebuildRoute = defineRoute({
  operationId: "createWorkspaceResourceCalendarRebuild",
  keys: "admin",
  method: "post",
  path: "/workspaces/{ws}/resources/{uuid}/calendar/rebuild",
  tags: ["Resources"],
  summary: "Rebuild each unit's calendar object from D1",
  description: `${description} Rebuilding makes each object's confirmed time exactly D1's (after a restore, or a reset of the namespace); writes in flight keep their holds. Answers the comparison after the rebuild.`,
  request: { params: ResourceParams },
  responses: {
    200: json(ResourceCalendarAuditSchema, "The comparison after rebuilding"),
    ...authErrors,
    ...queryErrors,
    ...workspaceNotFound("resource"),
  },
});

export const auditHandler: RouteHandler<typeof auditRoute, AdminEnv> = async (c) => {
  const { ws, uuid } = c.req.valid("param");
  return c.json(await auditResourceCalendars(workspaceDeps(c, ws), uuid, "audit"), 200);
};

export const rebuildHandler: RouteHandler<typeof rebuildRoute, AdminEnv> = async (c) => {
  const { ws, uuid } = c.req.valid("param");
  return c.json(await auditResourceCalendars(workspaceDeps(c, ws), uuid, "rebuild"), 200);
};
