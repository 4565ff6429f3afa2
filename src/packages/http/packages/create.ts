import type { RouteHandler } from "@hono/zod-openapi";
import type { PublicEnv } from "../../../http/env";
import { defineRoute } from "../../../http/operations";
import { withFields } from "../../../http/request-fields";
import { authErrors, bodyErrors, conflictErrors, json, jsonBody } from "../../../http/responses";
import { createTemplate } from "../../templates/create";
import { PackageSchema, renderPackage } from "../../views/package";
import { CREDIT_FIELDS, CreatePackageBody, creditsOf } from "./schema";

export const route = defineRoute({
  operationId: "createPackage",
  keys: "secret",
  method: "post",
  path: "/packages",
  tags: ["Packages"],
  summary: "Create a package (credits for services) or, with renews, a membership",
  description:
    "Every service a credit names must be a service of this workspace (else 422 on `credits.i.service_uuids.j`). Sold through a POS order line `packages`.",
  request: jsonBody(CreatePackageBody),
  responses: {
    201: json(PackageSchema, "Created"),
    ...authErrors,
    ...bodyErrors,
    ...conflictErrors(),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const body = c.req.valid("json");
  const row = await withFields(CREDIT_FIELDS, () =>
    createTemplate(c.var.deps.scope, {
      name: body.name,
      price: body.price,
      currency: body.currency ?? c.var.workspace.currency,
      credits: creditsOf(body.credits),
      validDays: body.valid_days,
      renews: body.renews ? body.renews.every : null,
    }),
  );
  return c.json(renderPackage(row), 201);
};
