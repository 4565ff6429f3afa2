import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import type { AdminEnv } from "../../../http/env";
import {
  authErrors,
  bodyErrors,
  conflictErrors,
  json,
  jsonBody,
  workspaceNotFound,
} from "../../../http/responses";
import { WorkspaceParams } from "../../../tenancy/http/admin/workspaces/schema";
import { requireWorkspace } from "../../../tenancy/queries/workspaces";
import { sha256Hex } from "../../../tenancy/api-keys";
import { ApiError } from "../../../platform/errors";
import { isUniqueViolation } from "../../../db/constraints";
import { savePartner, usernameHolder } from "../../queries/partners";
import { PartnerBody, PartnerSchema } from "./schema";

export const route = defineRoute({
  operationId: "setWorkspaceReserveWithGoogle",
  keys: "admin",
  method: "put",
  path: "/workspaces/{ws}/rwg",
  tags: ["Reserve with Google"],
  summary: "Set the workspace's Reserve with Google booking server credentials",
  description:
    "Google's booking server calls (`/rwg/v3/<Method>`) carry HTTP Basic auth with these credentials: the user name names the workspace, so it is unique over every workspace (another's is 409 `conflict`). The password is stored as a hash and never shown again; send it again to change anything. `enabled: false` answers Google 401 until it is enabled again. `partner_id` is the salon's own Google partner account, which real-time updates go out under (absent: the platform's, `RWG_PARTNER_ID`).",
  request: { params: WorkspaceParams, ...jsonBody(PartnerBody) },
  responses: {
    200: json(PartnerSchema, "Saved"),
    ...authErrors,
    ...bodyErrors,
    ...workspaceNotFound(),
    ...conflictErrors("Another workspace uses this user name", ["conflict"]),
  },
});

const taken = () =>
  new ApiError("conflict", "Another workspace uses this user name.", {
    errors: { username: ["Another workspace uses this user name."] },
  });

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const { ws } = c.req.valid("param");
  const body = c.req.valid("json");
  // The credentials are the directory's: Google's calls find the workspace there.
  const workspace = await requireWorkspace(c.var.directory, ws);
  const holder = await usernameHolder(c.var.directory, body.username);
  if (holder && holder !== workspace.id) throw taken();
  const now = Date.now();
  try {
    await savePartner(c.var.directory, {
      workspaceId: workspace.id,
      username: body.username,
      passwordHash: await sha256Hex(body.password),
      enabled: body.enabled,
      partnerId: body.partner_id ?? null,
      now,
    });
  } catch (error) {
    // Another workspace took the name between the read and the write (its unique index).
    if (isUniqueViolation(error, "rwg_partners", "username")) throw taken();
    throw error;
  }
  return c.json(
    {
      enabled: body.enabled,
      username: body.username,
      partner_id: body.partner_id ?? null,
      booking_server_path: "/rwg",
      updated_at: new Date(now).toISOString(),
    },
    200,
  );
};
