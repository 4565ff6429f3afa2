import { type RouteHandler, z } from "@hono/zod-openapi";
import { defineRoute } from "../../../../http/operations";
import { requireWorkspace } from "../../../../tenancy/queries/workspaces";
import { insertCategory } from "../../../queries/categories";
import type { AdminEnv } from "../../../../http/env";
import { nonEmpty } from "../../../../platform/fields";
import {
  authErrors,
  bodyErrors,
  json,
  jsonBody,
  workspaceNotFound,
} from "../../../../http/responses";
import { WorkspaceParams } from "../../../../tenancy/http/admin/workspaces/schema";

const CreateCategoryBody = z
  .object({
    name: nonEmpty(),
    kind: z.enum(["service", "good"]),
    class: z.string().max(64).optional(),
    order: z.number().int().min(0).max(100_000).optional(),
    cover: z.string().max(2048).optional(),
  })
  .openapi("CreateCategory");

const CategorySchema = z
  .object({
    uuid: z.string(),
    name: z.string(),
    kind: z.enum(["service", "good"]),
    class: z.string().nullable(),
    order: z.number().int(),
    cover: z.string().nullable(),
  })
  .openapi("Category");

export const route = defineRoute({
  operationId: "createWorkspaceCategory",
  keys: "admin",
  method: "post",
  path: "/workspaces/{ws}/categories",
  tags: ["Catalogue"],
  summary: "Create a service or goods category",
  request: { params: WorkspaceParams, ...jsonBody(CreateCategoryBody) },
  responses: {
    201: json(CategorySchema, "Created"),
    ...authErrors,
    ...bodyErrors,
    ...workspaceNotFound(),
  },
});

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const { ws } = c.req.valid("param");
  const body = c.req.valid("json");
  const workspace = await requireWorkspace(c.var.db, ws);
  const row = {
    id: crypto.randomUUID(),
    workspaceId: workspace.id,
    name: body.name,
    kind: body.kind,
    class: body.class ?? null,
    order: body.order ?? 0,
    cover: body.cover ?? null,
    createdAt: Date.now(),
  };
  await insertCategory(c.var.db, row);
  return c.json(
    {
      uuid: row.id,
      name: row.name,
      kind: row.kind,
      class: row.class,
      order: row.order,
      cover: row.cover,
    },
    201,
  );
};
