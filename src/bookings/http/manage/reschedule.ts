import type { RouteHandler } from "@hono/zod-openapi";
import type { RescheduleSubject } from "../../ops/reschedule";
import { rescheduleBooking } from "../../ops/reschedule";
import type { OpenEnv } from "../../../http/env";
import { defineRoute } from "../../../http/operations";
import { type FieldNames, withFields } from "../../../http/request-fields";
import { conflictErrors, errorCodes, json, jsonBody, TOO_LARGE } from "../../../http/responses";
import { bodyErrors } from "../../../http/responses";
import { customerDeps, managedScope } from "./deps";
import { manageErrors } from "./responses";
import { renderManageLink } from "./render";
import { ManagedMoveSchema, ManageRescheduleBody, TokenPath } from "./schema";
import { CUSTOMER_CHANGE_MESSAGES } from "../bookings/publishable";
import { publicOrigin } from "../../../platform/public-origin";

const FIELDS: FieldNames<RescheduleSubject> = { start: "reserved_on" };

export const route = defineRoute({
  operationId: "rescheduleManagedBooking",
  keys: "none",
  method: "post",
  path: "/manage/{token}/reschedule",
  tags: ["Manage links"],
  summary: "Move the link's booking to a new start (as the customer)",
  description:
    "Moves every service of the booking by the same amount so that it starts at reserved_on, as its customer would through the widget: held to the location's policy (less than change_offset minutes before the current start, when it is not 0: 409 policy_window_passed). The new time must be free (409 slot_unavailable with `alternatives`) and inside working hours and the minimum notice (422 on reserved_on); the booking's own current time does not count as taken. Sends the customer a booking-rescheduled message (a move to the current start changes nothing and sends none). The link used here and every link sent before keep opening the booking, at its new time: a link opens its customer's booking until a day after the booking's current end. The answer carries the booking's link in `manage`, with that new expiry. Needs no API key; rate-limited per client address, and to 5 changes a minute per booking (429). " +
    CUSTOMER_CHANGE_MESSAGES,
  request: { params: TokenPath, ...jsonBody(ManageRescheduleBody) },
  responses: {
    200: json(ManagedMoveSchema, "The booking as it now is, with the link for its new time"),
    ...manageErrors,
    ...bodyErrors,
    ...conflictErrors(
      "The booking is completed or canceled (`booking_closed`), the new time is taken (`slot_unavailable`, with `alternatives`), a group session there has too few seats left (`session_full`), another request changed the booking at the same moment (`booking_changed`), or the location's change_offset before the current start has passed (`policy_window_passed`), or a package credit paying for it expires before the new start (`package_unavailable`: nothing moves)",
      [
        "booking_closed",
        "slot_unavailable",
        "session_full",
        "booking_changed",
        "policy_window_passed",
        "package_unavailable",
      ],
    ),
    422: errorCodes(
      `reserved_on is not a UTC instant, is in the past or inside the minimum notice, or is outside a staffer's working hours, ${TOO_LARGE}`,
      ["validation_failed", "request_too_large"],
    ),
  },
});

export const handler: RouteHandler<typeof route, OpenEnv> = async (c) => {
  const { token } = c.req.valid("param");
  const body = c.req.valid("json");
  const { grant, scope } = await managedScope(c, token);
  const deps = await customerDeps(c, scope, grant);
  const booking = await withFields(FIELDS, () =>
    rescheduleBooking(deps, grant.bookingId, {
      start: Date.parse(body.reserved_on),
      // A customer's own change always tells them (the booking-rescheduled message).
      notifyOnReschedule: true,
      heldToPolicy: true,
    }),
  );
  const manage = await renderManageLink(c.env, publicOrigin(c.env), {
    id: booking.uuid,
    workspaceId: grant.workspaceId,
    customerId: booking.customer_uuid,
    endAt: Date.parse(booking.end_time),
  });
  return c.json({ ...booking, manage }, 200);
};
