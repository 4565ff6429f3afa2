import type { RouteHandler } from "@hono/zod-openapi";
import type { PublicEnv } from "../../../http/env";
import { defineRoute } from "../../../http/operations";
import { withFields } from "../../../http/request-fields";
import {
  authErrors,
  bodyErrors,
  conflictErrors,
  json,
  jsonBody,
  notFoundError,
} from "../../../http/responses";
import { updateTemplate } from "../../templates/update";
import { PackageSchema, renderPackage } from "../../views/package";
import { CREDIT_FIELDS, creditsOf, PackagePath, UpdatePackageBody } from "./schema";

export const route = defineRoute({
  operationId: "updatePackage",
  keys: "secret",
  method: "patch",
  path: "/packages/{package_uuid}",
  tags: ["Packages"],
  summary: "Change a package: live false stops selling it",
  description:
    "Changes apply to future sales only; customer packages already sold keep what they were sold with. An omitted field keeps its value.",
  request: { params: PackagePath, ...jsonBody(UpdatePackageBody) },
  responses: {
    200: json(PackageSchema, "The package as changed"),
    ...authErrors,
    ...bodyErrors,
    ...notFoundError("package"),
    ...conflictErrors("The package changed while this change was written, three times in a row"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { package_uuid: id } = c.req.valid("param");
  const body = c.req.valid("json");
  const row = await withFields(CREDIT_FIELDS, () =>
    updateTemplate(c.var.deps.scope, id, {
      name: body.name,
      price: body.price,
      live: body.live,
      validDays: body.valid_days,
      credits: body.credits && creditsOf(body.credits),
      renews: body.renews === undefined ? undefined : (body.renews?.every ?? null),
    }),
  );
  return c.json(renderPackage(row), 200);
};
