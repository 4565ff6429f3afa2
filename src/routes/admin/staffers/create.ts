import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { idIn, insertRows } from "../../../db/bounded";
import { replaceScheduleStatements } from "../../../db/queries/staffers";
import { locations, stafferLocations, staffers, workspaces } from "../../../db/schema";
import { validateSchedule } from "../../../domain/schedule";
import type { AppEnv } from "../../../env";
import { notFound, validationError } from "../../../lib/errors";
import { errorResponses, json, jsonBody } from "../../../lib/responses";
import { renderStaffer, StafferSchema } from "../../../views/staffer";
import { WorkspaceParams } from "../workspaces/schema";
import { CreateStafferBody } from "./schema";

export const route = createRoute({
  method: "post",
  path: "/workspaces/{ws}/staffers",
  tags: ["Staffers"],
  summary: "Create a staffer with locations, weekly schedule and date overrides",
  request: { params: WorkspaceParams, ...jsonBody(CreateStafferBody) },
  responses: { 201: json(StafferSchema, "Created"), ...errorResponses },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { ws } = c.req.valid("param");
  const body = c.req.valid("json");
  const db = c.var.db;
  const workspaceId = ws.toLowerCase();
  const locationIds = [...new Set(body.location_uuids)];
  const [found, known] = await db.batch([
    db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId)),
    db
      .select({ id: locations.id, workspaceId: locations.workspaceId })
      .from(locations)
      .where(idIn(locations.id, locationIds)),
  ]);
  if (found.length === 0) throw notFound("Workspace");
  const mine = new Set(known.filter((l) => l.workspaceId === workspaceId).map((l) => l.id));
  const unknown = locationIds.filter((id) => !mine.has(id));
  if (unknown.length > 0) {
    throw validationError({ location_uuids: [`Unknown location: ${unknown.join(", ")}.`] });
  }
  const problems = validateSchedule(body.schedule ?? [], body.overrides ?? [], mine);
  if (Object.keys(problems).length > 0) {
    // Field names in the body are `schedule` and `overrides`; the validator speaks of intervals.
    const renamed = Object.fromEntries(
      Object.entries(problems).map(([k, v]) => [k.replace(/^intervals/, "schedule"), v]),
    );
    throw validationError(renamed);
  }

  const id = crypto.randomUUID();
  const row = {
    id,
    workspaceId,
    firstName: body.first_name,
    lastName: body.last_name ?? null,
    email: body.email ?? null,
    isActiveInWidget: body.is_active_in_widget ?? true,
    permissions: [...new Set(body.permissions ?? [])],
    createdAt: Date.now(),
  };
  const scope = { db, workspaceId };
  await db.batch([
    db.insert(staffers).values(row),
    ...insertRows(
      db,
      stafferLocations,
      locationIds.map((locationId) => ({ workspaceId, stafferId: id, locationId })),
    ),
    ...replaceScheduleStatements(scope, id, {
      intervals: body.schedule ?? [],
      overrides: body.overrides ?? [],
    }),
  ]);
  return c.json(renderStaffer(row, locationIds), 201);
};
