import type { RouteHandler } from "@hono/zod-openapi";
import type { PublicEnv } from "../../../http/env";
import { defineRoute } from "../../../http/operations";
import { authErrors, json, notFoundError, queryErrors } from "../../../http/responses";
import { notFound } from "../../../platform/errors";
import { findTemplate } from "../../queries/templates";
import { PackageSchema, renderPackage } from "../../views/package";
import { PackagePath } from "./schema";

export const route = defineRoute({
  operationId: "getPackage",
  keys: "secret",
  method: "get",
  path: "/packages/{package_uuid}",
  tags: ["Packages"],
  summary: "Get a package or membership",
  request: { params: PackagePath },
  responses: {
    200: json(PackageSchema, "The package"),
    ...authErrors,
    ...queryErrors,
    ...notFoundError("package"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const row = await findTemplate(c.var.deps.scope, c.req.valid("param").package_uuid);
  if (!row) throw notFound("Package");
  return c.json(renderPackage(row), 200);
};
