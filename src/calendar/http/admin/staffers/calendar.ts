import type { RouteHandler, z } from "@hono/zod-openapi";
import { defineRoute } from "../../../../http/operations";
import type { Context } from "hono";
import { calendarFor } from "../../../client";
import { findStafferId } from "../../../../catalogue/queries/staffer-records";
import type { AdminEnv } from "../../../../http/env";
import { notFound } from "../../../../platform/errors";
import { authErrors, json, queryErrors, workspaceNotFound } from "../../../../http/responses";
import { CalendarAuditSchema } from "../../../../catalogue/http/admin/staffers/calendar-schema";
import { StafferParams } from "../../../../catalogue/http/admin/staffers/schema";
import { workspaceDeps } from "../../../../http/admin-deps";

const description =
  "A staffer's busy time lives twice: in D1 (the record) and in the staffer's calendar object (which decides claims). At rest both hold the same intervals.";

export const auditRoute = defineRoute({
  operationId: "auditStafferCalendar",
  keys: "admin",
  method: "get",
  path: "/workspaces/{ws}/staffers/{uuid}/calendar",
  tags: ["Staffers"],
  summary: "Compare a staffer's calendar object with D1",
  description,
  request: { params: StafferParams },
  responses: {
    200: json(CalendarAuditSchema, "The comparison"),
    ...authErrors,
    ...queryErrors,
    ...workspaceNotFound("staffer"),
  },
});

export const rebuildRoute = defineRoute({
  operationId: "rebuildStafferCalendar",
  keys: "admin",
  method: "post",
  path: "/workspaces/{ws}/staffers/{uuid}/calendar/rebuild",
  tags: ["Staffers"],
  summary: "Rebuild a staffer's calendar object from D1",
  description: `${description} Rebuilding makes the object's confirmed time exactly D1's (after a restore, or a reset of the namespace); writes in flight keep their holds. Answers the comparison after the rebuild.`,
  request: { params: StafferParams },
  responses: {
    200: json(CalendarAuditSchema, "The comparison after rebuilding"),
    ...authErrors,
    ...queryErrors,
    ...workspaceNotFound("staffer"),
  },
});

async function stafferCalendar(c: Context<AdminEnv>, { ws, uuid }: z.infer<typeof StafferParams>) {
  const { scope, env } = workspaceDeps(c, ws);
  const stafferId = await findStafferId(scope, uuid);
  if (!stafferId) throw notFound("Staffer");
  const { workspaceId } = scope;
  return { workspaceId, stafferId, stub: calendarFor(env, workspaceId, stafferId) };
}

export const auditHandler: RouteHandler<typeof auditRoute, AdminEnv> = async (c) => {
  const { workspaceId, stafferId, stub } = await stafferCalendar(c, c.req.valid("param"));
  return c.json(await stub.audit(workspaceId, stafferId), 200);
};

export const rebuildHandler: RouteHandler<typeof rebuildRoute, AdminEnv> = async (c) => {
  const { workspaceId, stafferId, stub } = await stafferCalendar(c, c.req.valid("param"));
  return c.json(await stub.rebuild(workspaceId, stafferId), 200);
};
