import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../../http/operations";
import { requireWorkspace } from "../../../../tenancy/queries/workspaces";
import { insertVoucherTemplate } from "../../../queries/voucher-templates";
import type { AdminEnv } from "../../../../http/env";
import {
  authErrors,
  bodyErrors,
  json,
  jsonBody,
  workspaceNotFound,
} from "../../../../http/responses";
import { WorkspaceParams } from "../../../../tenancy/http/admin/workspaces/schema";
import { CreateVoucherTemplateBody, renderVoucherTemplate, VoucherTemplateSchema } from "./schema";

export const route = defineRoute({
  operationId: "createWorkspaceVoucherTemplate",
  keys: "admin",
  method: "post",
  path: "/workspaces/{ws}/voucher-templates",
  tags: ["Voucher templates"],
  summary: "Create a voucher template sold at the POS",
  request: { params: WorkspaceParams, ...jsonBody(CreateVoucherTemplateBody) },
  responses: {
    201: json(VoucherTemplateSchema, "Created"),
    ...authErrors,
    ...bodyErrors,
    ...workspaceNotFound(),
  },
});

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const { ws } = c.req.valid("param");
  const body = c.req.valid("json");
  const workspace = await requireWorkspace(c.var.db, ws);
  const [row] = await insertVoucherTemplate(c.var.db, {
    id: crypto.randomUUID(),
    workspaceId: workspace.id,
    name: body.name,
    price: body.price,
    createdAt: Date.now(),
  });
  if (!row) throw new Error("insert returned no row");
  return c.json(renderVoucherTemplate(row), 201);
};
