import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { commitWithClaims } from "../../../calendar/client";
import { guard, holdNotFenced } from "../../../db/guards";
import { blockedSpots, calendarEntries, stafferLocations, staffers } from "../../../db/schema";
import { whereIn } from "../../../db/scope";
import type { AppEnv } from "../../../env";
import { fieldError, notFound } from "../../../lib/errors";
import { errorResponses, json, jsonBody } from "../../../lib/responses";
import { BlockedSpotSchema, CreateBlockedSpotBody, renderBlockedSpot, StafferPath } from "./schema";

export const route = createRoute({
  method: "post",
  path: "/staffers/{staffer_uuid}/blocked-spots",
  tags: ["Staff calendar"],
  summary: "Block a time range on a staffer's calendar",
  description:
    "Blocked ranges disappear from time-slot search and cannot be booked. They may be laid over existing bookings (a sick day), which stay as they are.",
  request: { params: StafferPath, ...jsonBody(CreateBlockedSpotBody) },
  responses: { 201: json(BlockedSpotSchema, "Created"), ...errorResponses },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { staffer_uuid: stafferId } = c.req.valid("param");
  const body = c.req.valid("json");
  const scope = c.var.scope;
  const [found, attached] = await scope.db.batch([
    scope.db
      .select({ id: staffers.id })
      .from(staffers)
      .where(whereIn(scope, staffers, eq(staffers.id, stafferId))),
    scope.db
      .select({ locationId: stafferLocations.locationId })
      .from(stafferLocations)
      .where(whereIn(scope, stafferLocations, eq(stafferLocations.stafferId, stafferId))),
  ]);
  if (found.length === 0) throw notFound("Staffer");
  if (!attached.some((a) => a.locationId === body.location_uuid)) {
    throw fieldError("location_uuid", "The staffer is not attached to this location.");
  }

  const row = {
    id: crypto.randomUUID(),
    workspaceId: scope.workspaceId,
    stafferId,
    locationId: body.location_uuid,
    startsAtRaw: body.starts_at,
    endsAtRaw: body.ends_at,
    startsAt: Date.parse(body.starts_at),
    endsAt: Date.parse(body.ends_at),
    comment: body.comment ?? null,
    class: body.class ?? null,
    createdAt: Date.now(),
  };
  const entry = {
    id: row.id,
    kind: "blocked" as const,
    source: row.id,
    start: row.startsAt,
    end: row.endsAt,
  };
  await commitWithClaims(
    c.env,
    scope.db,
    scope.workspaceId,
    [{ stafferId, entries: [entry], checkConflicts: false }],
    (holdId) => [
      guard(scope, holdNotFenced(holdId)),
      scope.db.insert(blockedSpots).values(row),
      scope.db.insert(calendarEntries).values({
        id: row.id,
        workspaceId: scope.workspaceId,
        stafferId,
        locationId: row.locationId,
        kind: "blocked",
        sourceId: row.id,
        startsAt: row.startsAt,
        endsAt: row.endsAt,
      }),
    ],
  );
  return c.json(renderBlockedSpot(row), 201);
};
