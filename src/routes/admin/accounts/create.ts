import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { accounts, locations, workspaces } from "../../../db/schema";
import { whereIn } from "../../../db/scope";
import { ACCOUNT_TYPES } from "../../../domain/accounts";
import type { AppEnv } from "../../../env";
import { fieldError, notFound } from "../../../lib/errors";
import { nonEmpty, uuid } from "../../../lib/fields";
import { errorResponses, json, jsonBody } from "../../../lib/responses";
import { AccountSchema, renderAccount } from "../../../views/account";
import { WorkspaceParams } from "../workspaces/schema";

const CreateAccountBody = z
  .object({
    location_uuid: uuid("location_uuid"),
    name: nonEmpty(),
    type: z.enum(ACCOUNT_TYPES, { message: `Must be one of ${ACCOUNT_TYPES.join(", ")}.` }),
  })
  .openapi("CreateAccount");

export const route = createRoute({
  method: "post",
  path: "/workspaces/{ws}/accounts",
  tags: ["Accounts"],
  summary: "Create a payment account of a location",
  request: { params: WorkspaceParams, ...jsonBody(CreateAccountBody) },
  responses: { 201: json(AccountSchema, "Created"), ...errorResponses },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { ws } = c.req.valid("param");
  const body = c.req.valid("json");
  const db = c.var.db;
  const workspaceId = ws.toLowerCase();
  const [found, location] = await db.batch([
    db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId)),
    db
      .select({ id: locations.id })
      .from(locations)
      .where(whereIn({ db, workspaceId }, locations, eq(locations.id, body.location_uuid))),
  ]);
  if (found.length === 0) throw notFound("Workspace");
  // Another workspace's location is as unknown as a made-up one.
  if (location.length === 0) throw fieldError("location_uuid", "Unknown location.");
  const [row] = await db
    .insert(accounts)
    .values({
      id: crypto.randomUUID(),
      workspaceId,
      locationId: body.location_uuid,
      name: body.name,
      type: body.type,
      createdAt: Date.now(),
    })
    .returning();
  if (!row) throw new Error("insert returned no row");
  return c.json(renderAccount(row), 201);
};
