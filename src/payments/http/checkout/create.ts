import { z, type RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import type { PublicEnv } from "../../../http/env";
import { authErrors, conflictErrors, json, jsonBody, notFoundError } from "../../../http/responses";
import { type FieldNames, withFields } from "../../../http/request-fields";
import { uuid } from "../../../platform/fields";
import type { FormField } from "../../../tenancy/rules/booking-form";
import { CustomerFields } from "../../../bookings/http/bookings/schema";
import { startCheckout } from "../../checkout";
import { CheckoutSchema, paymentsUnavailable, returnPages } from "./schema";

type CheckoutSubject = { is: "phone" } | { is: "form"; field: FormField } | { is: "reservation" };

const CHECKOUT_FIELDS: FieldNames<CheckoutSubject> = {
  phone: "customer_phone",
  form: (about) => about.field,
  reservation: "reservation_uuid",
};

export const CheckoutBody = z
  .object({
    ...CustomerFields,
    ...returnPages("the reservation is still held then."),
  })
  .openapi("CreateCheckout");

export const route = defineRoute({
  operationId: "createReservationCheckout",
  keys: "publishable",
  method: "post",
  path: "/reservations/{reservation_uuid}/checkout",
  tags: ["Payments"],
  summary: "Pay for a reservation on the payment provider's hosted page",
  description:
    "For a reservation whose `payment` is not null (its services take a deposit, the whole price, or a saved card for later fees). The body carries the customer fields of POST /bookings, checked now (422 as there), and the pages to come back to. The answer is the provider's hosted page; the reservation is held until `expires_at` (and counts against the visitor's holds meanwhile). The customer pays there; the booking is made when the provider confirms the payment (GET /reservations/{uuid} then shows `checkout.status` complete and `booking_uuid`). Calling again while the page is open answers the same page, with the newest customer fields. The amount is the reservation's: nothing in the request sets it.",
  request: {
    params: z.object({ reservation_uuid: uuid("reservation_uuid") }),
    ...jsonBody(CheckoutBody),
  },
  responses: {
    201: json(CheckoutSchema, "The hosted payment page"),
    ...authErrors,
    ...notFoundError("reservation"),
    ...conflictErrors(
      "The reservation expired, was used or deleted, or its time was taken by staff (`reservation_expired`); another checkout of it is being started (`conflict`)",
      ["reservation_expired", "conflict"],
    ),
    ...paymentsUnavailable,
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { reservation_uuid: reservationId } = c.req.valid("param");
  const { success_url: successUrl, cancel_url: cancelUrl, ...customer } = c.req.valid("json");
  const answer = await withFields(CHECKOUT_FIELDS, () =>
    startCheckout(c.var.deps, {
      reservationId,
      country: c.var.workspace.country,
      customer,
      successUrl,
      cancelUrl,
    }),
  );
  return c.json(answer, 201);
};
