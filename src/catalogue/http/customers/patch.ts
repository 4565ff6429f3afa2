import { type RouteHandler, z } from "@hono/zod-openapi";
import { setCustomerNotifications } from "../../queries/customers";
import type { PublicEnv } from "../../../http/env";
import { notFound } from "../../../platform/errors";
import { uuid } from "../../../platform/fields";
import { defineRoute } from "../../../http/operations";
import { authErrors, bodyErrors, json, jsonBody, notFoundError } from "../../../http/responses";
import { CustomerSchema, renderCustomer } from "../../views/customer";

const PatchCustomerBody = z
  .strictObject({
    notifications: z
      .strictObject({
        email: z.boolean().optional(),
        sms: z.boolean().optional(),
      })
      .optional()
      .openapi({
        description:
          "Whether the customer gets messages on each channel; an opted-out channel's messages are recorded as skipped",
      }),
  })
  .openapi("PatchCustomer");

const CustomerWithNotifications = CustomerSchema.extend({
  notifications: z.object({ email: z.boolean(), sms: z.boolean() }),
  locale: z.string().nullable().openapi({ description: "The language messages are written in" }),
}).openapi("CustomerNotifications");

export const route = defineRoute({
  operationId: "updateCustomer",
  keys: "secret",
  method: "patch",
  path: "/customers/{customer_uuid}",
  tags: ["Customers"],
  summary: "Change a customer's message opt-outs",
  request: {
    params: z.object({ customer_uuid: uuid("customer_uuid") }),
    ...jsonBody(PatchCustomerBody),
  },
  responses: {
    200: json(CustomerWithNotifications, "The customer as it now is"),
    ...authErrors,
    ...bodyErrors,
    ...notFoundError("customer"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { customer_uuid: id } = c.req.valid("param");
  const { notifications } = c.req.valid("json");
  const row = await setCustomerNotifications(c.var.deps.scope, id, {
    notifyEmail: notifications?.email,
    notifySms: notifications?.sms,
  });
  if (!row) throw notFound("Customer");
  return c.json(
    {
      ...renderCustomer(row),
      notifications: { email: row.notifyEmail, sms: row.notifySms },
      locale: row.locale,
    },
    200,
  );
};
