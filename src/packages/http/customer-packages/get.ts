import { type RouteHandler, z } from "@hono/zod-openapi";
import { run } from "../../../db/reads";
import type { PublicEnv } from "../../../http/env";
import { defineRoute } from "../../../http/operations";
import { authErrors, json, notFoundError, queryErrors } from "../../../http/responses";
import { notFound } from "../../../platform/errors";
import { customerPackageRead } from "../../queries/customer-packages";
import { CustomerPackageSchema } from "../../views/customer-package";
import {
  publicCustomerPackage,
  PublicCustomerPackageSchema,
} from "../../views/public-customer-package";
import { CustomerPackagePath, renderRecord } from "./schema";

export const route = defineRoute({
  operationId: "getCustomerPackage",
  keys: "publishable",
  method: "get",
  path: "/customer-packages/{customer_package_uuid}",
  tags: ["Customer packages"],
  summary: "Get a customer package: in full with a secret key, reduced with a publishable key",
  description:
    "A secret key gets the `CustomerPackage`. A publishable key (a booking widget) gets the `PublicCustomerPackage`: its name, status, expiry, what each credit has left and a membership's period dates; never the customer, the order or the price.",
  request: { params: CustomerPackagePath },
  responses: {
    200: json(
      z.union([CustomerPackageSchema, PublicCustomerPackageSchema]),
      "The customer package (secret key) or its public view (publishable key)",
    ),
    ...authErrors,
    ...queryErrors,
    ...notFoundError("customer package"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { customer_package_uuid: id } = c.req.valid("param");
  const record = await run(c.var.deps.scope.db, customerPackageRead(c.var.deps.scope, id));
  if (!record) throw notFound("Customer package");
  const full = renderRecord(record, Date.now());
  return c.json(c.var.apiKey.kind === "secret" ? full : publicCustomerPackage(full), 200);
};
