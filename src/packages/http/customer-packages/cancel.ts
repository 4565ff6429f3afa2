import type { RouteHandler } from "@hono/zod-openapi";
import type { PublicEnv } from "../../../http/env";
import { defineRoute } from "../../../http/operations";
import {
  authErrors,
  conflictErrors,
  json,
  notFoundError,
  queryErrors,
} from "../../../http/responses";
import { cancelMembership } from "../../cancel-membership";
import { CustomerPackageSchema } from "../../views/customer-package";
import { CustomerPackagePath, renderRecord } from "./schema";

export const route = defineRoute({
  operationId: "cancelMembership",
  keys: "secret",
  method: "post",
  path: "/customer-packages/{customer_package_uuid}/cancel",
  tags: ["Customer packages"],
  summary: "Stop a membership renewing at its period's end",
  description:
    "The membership keeps its credits until its current period ends and is never charged again (`renewing` false, `next_charge_at` null; a failed charge not yet paid is given up, so it is no longer past due). Cancelling again answers the same state.",
  request: { params: CustomerPackagePath },
  responses: {
    200: json(CustomerPackageSchema, "The membership, no longer renewing"),
    ...authErrors,
    ...queryErrors,
    ...notFoundError("customer package"),
    ...conflictErrors(
      "A package that does not renew (`not_a_membership`) or a void membership (`package_void`) cannot be cancelled",
      ["not_a_membership", "package_void"],
    ),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const record = await cancelMembership(
    c.var.deps.scope,
    c.req.valid("param").customer_package_uuid,
  );
  return c.json(renderRecord(record, Date.now()), 200);
};
