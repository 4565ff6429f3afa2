import type { RouteHandler } from "@hono/zod-openapi";
import { cancelBooking } from "../../ops/cancel";
import type { OpenEnv } from "../../../http/env";
import { defineRoute } from "../../../http/operations";
import { type FieldNames, withFields } from "../../../http/request-fields";
import type { CancelSubject } from "../../rules/booking-rules";
import { bodyErrors, conflictErrors, json } from "../../../http/responses";
import { BookingSchema } from "../../views/booking-schema";
import { customerDeps, managedScope } from "./deps";
import { manageErrors } from "./responses";
import { ManageCancelBody, TokenPath } from "./schema";
import { CUSTOMER_CHANGE_MESSAGES } from "../bookings/publishable";

/** The body names only the reason; the other subjects cannot come from it. */
const FIELDS: FieldNames<CancelSubject> = {
  reason: "cancel_reason",
  notes: "cancel_reason",
  staffer: "cancel_reason",
  fee: "cancel_reason",
};

export const route = defineRoute({
  operationId: "cancelManagedBooking",
  keys: "none",
  method: "post",
  path: "/manage/{token}/cancel",
  tags: ["Manage links"],
  summary: "Cancel the link's booking (as the customer)",
  description:
    "Cancels the booking as its customer would through the widget: held to the location's policy (less than cancellation_offset minutes before the start, when it is not 0: 409 policy_window_passed), recorded with canceled_by `customer`, cancel_reason canceled unless the body gives postponed or other. The body may be left out. A booking is canceled at most once: again is 409 booking_closed. Needs no API key; rate-limited per client address, and to 5 changes a minute per booking (429). `Idempotency-Key` is not used here (a repeated cancel is booking_closed, never a second change). A booking paid online is settled as a customer's cancel with a publishable key is: everything paid online refunded before its payment's cancel_fee_from, the late-cancel fee kept or charged to the saved card from then on. A package credit the booking holds goes back to its package, or is used (a package-credit-used event) when the cancel falls within the service's late-cancel window as it was when booked. " +
    CUSTOMER_CHANGE_MESSAGES,
  request: {
    params: TokenPath,
    body: { content: { "application/json": { schema: ManageCancelBody } }, required: false },
  },
  responses: {
    200: json(BookingSchema, "The booking as it now is"),
    ...manageErrors,
    ...bodyErrors,
    ...conflictErrors(
      "The booking is completed or canceled (`booking_closed`), another request changed it at the same moment (`booking_changed`), or the location's cancellation_offset before the start has passed (`policy_window_passed`)",
      ["booking_closed", "booking_changed", "policy_window_passed"],
    ),
  },
});

export const handler: RouteHandler<typeof route, OpenEnv> = async (c) => {
  const { token } = c.req.valid("param");
  const body = c.req.valid("json") ?? {};
  const { grant, scope } = await managedScope(c, token);
  const deps = await customerDeps(c, scope, grant);
  const booking = await withFields(FIELDS, () =>
    cancelBooking(deps, grant.bookingId, {
      cancelReason: body.cancel_reason,
      caller: "customer",
    }),
  );
  return c.json(booking, 200);
};
