import { type RouteHandler, z } from "@hono/zod-openapi";
import { defineRoute } from "../../../../http/operations";
import { createAccount } from "../../../queries/account-create";
import { ACCOUNT_TYPES } from "../../../rules/accounts";
import type { AdminEnv } from "../../../../http/env";
import { fieldError } from "../../../../platform/errors";
import { nonEmpty, uuid } from "../../../../platform/fields";
import {
  authErrors,
  bodyErrors,
  json,
  jsonBody,
  workspaceNotFound,
} from "../../../../http/responses";
import { AccountSchema, renderAccount } from "../../../views/account";
import { WorkspaceParams } from "../../../../tenancy/http/admin/workspaces/schema";
import { workspaceDeps } from "../../../../http/admin-deps";

const CreateAccountBody = z
  .object({
    location_uuid: uuid("location_uuid"),
    name: nonEmpty(),
    type: z.enum(ACCOUNT_TYPES, { message: `Must be one of ${ACCOUNT_TYPES.join(", ")}.` }),
  })
  .openapi("CreateAccount");

export const route = defineRoute({
  operationId: "createWorkspaceAccount",
  keys: "admin",
  method: "post",
  path: "/workspaces/{ws}/accounts",
  tags: ["Accounts"],
  summary: "Create a payment account of a location",
  request: { params: WorkspaceParams, ...jsonBody(CreateAccountBody) },
  responses: {
    201: json(AccountSchema, "Created"),
    ...authErrors,
    ...bodyErrors,
    ...workspaceNotFound(),
  },
});

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const { ws } = c.req.valid("param");
  const body = c.req.valid("json");
  const row = await createAccount(workspaceDeps(c, ws).scope, {
    locationId: body.location_uuid,
    name: body.name,
    type: body.type,
    createdAt: Date.now(),
  });
  // Another workspace's location is as unknown as a made-up one.
  if (!row) throw fieldError("location_uuid", "Unknown location.");
  return c.json(renderAccount(row), 201);
};
