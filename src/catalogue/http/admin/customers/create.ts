import { type RouteHandler, z } from "@hono/zod-openapi";
import { defineRoute } from "../../../../http/operations";
import { isUniqueViolation } from "../../../../db/constraints";
import { requireWorkspace } from "../../../../tenancy/queries/workspaces";
import { insertCustomer } from "../../../queries/customers";
import { configOf } from "../../../../platform/config";
import { customerIdFor } from "../../../../platform/rules/customer-id";
import { normalisePhone } from "../../../../platform/rules/phone";
import type { AdminEnv } from "../../../../http/env";
import { fieldError } from "../../../../platform/errors";
import { personName } from "../../../../platform/fields";
import {
  authErrors,
  bodyErrors,
  json,
  jsonBody,
  workspaceNotFound,
} from "../../../../http/responses";
import { CustomerSchema, renderCustomer } from "../../../views/customer";
import { WorkspaceParams } from "../../../../tenancy/http/admin/workspaces/schema";

const CreateCustomerBody = z
  .object({
    first_name: personName(),
    last_name: personName().optional(),
    middle_name: personName().optional(),
    phone: z.string().max(64, "At most 64 characters.").openapi({
      description: "National form (read with the workspace country) or international with +",
      example: "030 12345678",
    }),
    email: z
      .email("Must be a valid e-mail address.")
      .max(320, "At most 320 characters.")
      .optional(),
  })
  .openapi("ImportCustomer");

export const route = defineRoute({
  operationId: "createWorkspaceCustomer",
  keys: "admin",
  method: "post",
  path: "/workspaces/{ws}/customers",
  tags: ["Customers"],
  summary: "Import a customer (the phone is the customer's identity in the workspace)",
  request: { params: WorkspaceParams, ...jsonBody(CreateCustomerBody) },
  responses: {
    201: json(CustomerSchema, "Created"),
    ...authErrors,
    ...bodyErrors,
    ...workspaceNotFound(),
  },
});

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const { ws } = c.req.valid("param");
  const body = c.req.valid("json");
  const workspace = await requireWorkspace(c.var.db, ws);
  const phone = normalisePhone(body.phone, workspace.country);
  if (!phone) {
    throw fieldError(
      "phone",
      `Must be a valid phone number: national for ${workspace.country}, or international starting with +.`,
    );
  }
  // Bookings find customers by phone, so a second customer with the same number would be unreachable.
  const rows = await insertCustomer(c.var.db, {
    // Same derived id as a booking would give this phone, so both always meet on one row
    // (and a booking finds a customer by phone whatever its id).
    id: await customerIdFor(workspace.id, phone, configOf(c.env).customerIdSecret),
    workspaceId: workspace.id,
    firstName: body.first_name,
    lastName: body.last_name ?? null,
    middleName: body.middle_name ?? null,
    phone,
    email: body.email ?? null,
    emailLower: body.email?.toLowerCase() ?? null,
    createdAt: Date.now(),
  }).catch((error: unknown) => {
    if (!isUniqueViolation(error, "customers", "phone")) throw error;
    throw fieldError("phone", `A customer with the phone ${phone} already exists.`);
  });
  const [row] = rows;
  if (!row) throw new Error("insert returned no row");
  return c.json(renderCustomer(row), 201);
};
