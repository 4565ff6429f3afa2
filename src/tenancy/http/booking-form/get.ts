import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { loadBookingForm } from "../../queries/booking-form";
import type { PublicEnv } from "../../../http/env";
import { authErrors, json } from "../../../http/responses";
import { BookingFormSchema } from "../../views/booking-form";

export const route = defineRoute({
  operationId: "listBookingForm",
  keys: "publishable",
  method: "get",
  path: "/booking-form",
  tags: ["Booking form"],
  summary: "The workspace's booking form",
  description:
    "For each optional field of POST /bookings and POST /bookings/cart (customer_email, customer_last_name, customer_middle_name, booking_comment): required (a booking without it is 422 on that field), optional, or hidden (ignored when sent, never stored). Until the workspace sets its form, every field is optional. Allowed for publishable keys: a booking widget renders its form from it.",
  responses: {
    200: json(BookingFormSchema, "The form"),
    ...authErrors,
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) =>
  c.json(await loadBookingForm(c.var.deps.scope), 200);
