import { type RouteHandler, z } from "@hono/zod-openapi";
import { defineRoute } from "../../../../http/operations";
import { saveBookingForm } from "../../../queries/booking-form";
import { requireWorkspace } from "../../../queries/workspaces";
import { DEFAULT_FORM } from "../../../rules/booking-form";
import type { AdminEnv } from "../../../../http/env";
import {
  authErrors,
  bodyErrors,
  json,
  jsonBody,
  workspaceNotFound,
} from "../../../../http/responses";
import { BookingFormSchema, FieldModeSchema } from "../../../views/booking-form";
import { WorkspaceParams } from "../workspaces/schema";

const PutBookingFormBody = z
  .object({
    customer_email: FieldModeSchema.optional(),
    customer_last_name: FieldModeSchema.optional(),
    customer_middle_name: FieldModeSchema.optional(),
    booking_comment: FieldModeSchema.optional(),
  })
  // A misspelt field would otherwise be dropped silently and leave the real one optional.
  .strict()
  .openapi("PutBookingForm");

export const route = defineRoute({
  operationId: "setWorkspaceBookingForm",
  keys: "admin",
  method: "put",
  path: "/workspaces/{ws}/booking-form",
  tags: ["Booking form"],
  summary: "Set the workspace's booking form",
  description:
    "Replaces the whole form: each of customer_email, customer_last_name, customer_middle_name and booking_comment is required, optional or hidden; a field left out becomes optional. Creating a booking (single, cart, or from a reservation) without a required field answers 422 on that field; a hidden field sent is ignored and not stored. The public API shows the form at GET /booking-form.",
  request: { params: WorkspaceParams, ...jsonBody(PutBookingFormBody) },
  responses: {
    200: json(BookingFormSchema, "The form as it now is"),
    ...authErrors,
    ...bodyErrors,
    ...workspaceNotFound(),
  },
});

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const { ws } = c.req.valid("param");
  const body = c.req.valid("json");
  const workspace = await requireWorkspace(c.var.db, ws);
  const form = await saveBookingForm(c.var.db, workspace.id, { ...DEFAULT_FORM, ...body });
  return c.json(form, 200);
};
