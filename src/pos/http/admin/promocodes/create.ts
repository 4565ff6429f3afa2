import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../../http/operations";
import { createPromocode } from "../../../queries/promocode-create";
import type { AdminEnv } from "../../../../http/env";
import { fieldError } from "../../../../platform/errors";
import {
  authErrors,
  bodyErrors,
  json,
  jsonBody,
  workspaceNotFound,
} from "../../../../http/responses";
import { WorkspaceParams } from "../../../../tenancy/http/admin/workspaces/schema";
import { CreatePromocodeBody, PromocodeSchema, renderPromocode } from "./schema";
import { workspaceDeps } from "../../../../http/admin-deps";

export const route = defineRoute({
  operationId: "createWorkspacePromocode",
  keys: "admin",
  method: "post",
  path: "/workspaces/{ws}/promocodes",
  tags: ["Promocodes"],
  summary: "Create a promocode (a percentage or a fixed amount off)",
  request: { params: WorkspaceParams, ...jsonBody(CreatePromocodeBody) },
  responses: {
    201: json(PromocodeSchema, "Created"),
    ...authErrors,
    ...bodyErrors,
    ...workspaceNotFound(),
  },
});

const taken = () => fieldError("code", "This code already exists in the workspace.");

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const { ws } = c.req.valid("param");
  const body = c.req.valid("json");
  const row = await createPromocode(workspaceDeps(c, ws).scope, {
    id: crypto.randomUUID(),
    code: body.code,
    discountPercent: body.discount_percent ?? null,
    discountAmount: body.discount_amount ?? null,
    maxUses: body.max_uses ?? null,
    createdAt: Date.now(),
  });
  if (!row) throw taken();
  return c.json(renderPromocode(row), 201);
};
