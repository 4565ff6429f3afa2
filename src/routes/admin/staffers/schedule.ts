import { createRoute, type RouteHandler, type z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { runBatch } from "../../../db/client";
import { replaceScheduleStatements } from "../../../db/queries/staffers";
import { stafferLocations, staffers } from "../../../db/schema";
import { validateSchedule } from "../../../domain/schedule";
import type { AppEnv } from "../../../env";
import { notFound, validationError } from "../../../lib/errors";
import { errorResponses, json, jsonBody } from "../../../lib/responses";
import { ScheduleBody, StafferParams } from "./schema";

export const route = createRoute({
  method: "put",
  path: "/workspaces/{ws}/staffers/{uuid}/schedule",
  tags: ["Staffers"],
  summary: "Replace a staffer's weekly schedule and date overrides",
  request: { params: StafferParams, ...jsonBody(ScheduleBody) },
  responses: { 200: json(ScheduleBody, "The schedule now in force"), ...errorResponses },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { ws, uuid } = c.req.valid("param");
  const body = c.req.valid("json");
  const db = c.var.db;
  const workspaceId = ws.toLowerCase();
  const [found, attached] = await db.batch([
    db
      .select({ id: staffers.id })
      .from(staffers)
      .where(and(eq(staffers.workspaceId, workspaceId), eq(staffers.id, uuid))),
    db
      .select({ locationId: stafferLocations.locationId })
      .from(stafferLocations)
      .where(
        and(eq(stafferLocations.workspaceId, workspaceId), eq(stafferLocations.stafferId, uuid)),
      ),
  ]);
  if (found.length === 0) throw notFound("Staffer");
  const overrides = body.overrides ?? [];
  const problems = validateSchedule(
    body.intervals,
    overrides,
    new Set(attached.map((a) => a.locationId)),
  );
  if (Object.keys(problems).length > 0) throw validationError(problems);
  await runBatch(
    db,
    replaceScheduleStatements({ db, workspaceId }, uuid, { intervals: body.intervals, overrides }),
  );
  return c.json(
    { intervals: body.intervals, overrides } satisfies z.infer<typeof ScheduleBody>,
    200,
  );
};
