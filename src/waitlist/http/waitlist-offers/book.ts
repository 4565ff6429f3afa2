import type { RouteHandler } from "@hono/zod-openapi";
import type { BookingSubject } from "../../../bookings/create";
import type { OpenEnv } from "../../../http/env";
import { manageUrl } from "../../../bookings/manage-link";
import { messageVisitor } from "../../../messages/message-visitor";
import { publicOrigin } from "../../../platform/public-origin";
import { defineRoute } from "../../../http/operations";
import { type FieldNames, withFields } from "../../../http/request-fields";
import {
  bodyErrors,
  calendarWriteErrors,
  conflictErrors,
  errorCodes,
  json,
} from "../../../http/responses";
import { clientAddress, limitCustomerChange } from "../../../http/rate-limit";
import { BookingSchema } from "../../../bookings/views/booking-schema";
import { bookOffer } from "../../offer-book";
import { bookedThroughOffer } from "../../queries/waitlist";
import { openLimitedOffer } from "./open";
import { offerErrors } from "./responses";
import { BookOfferBody, OfferTokenPath } from "./schema";

/** The body carries only what the entry may lack; anything else is about the offer itself. */
const FIELDS: FieldNames<BookingSubject> = {
  location: "token",
  start: "token",
  services: "token",
  service: "token",
  staffer: "token",
  items: "token",
  reservation: "token",
  phone: "token",
  quantity: "token",
  form: ({ field }) => field,
};

export const route = defineRoute({
  operationId: "bookWaitlistOffer",
  keys: "none",
  method: "post",
  path: "/waitlist-offers/{token}/book",
  tags: ["Waitlist"],
  summary: "Book the time a waitlist offer holds",
  description:
    "Books exactly the held time for the entry's customer (phone, first name, e-mail), as a booking through the widget would: the reservation is used up in the booking's own write and the entry becomes booked (its booking_uuid set). A field the workspace's booking form requires that the entry lacks (last name, e-mail) comes from the body (422 on it otherwise). Needs no API key; rate-limited per client address, per token and per workspace. 409 reservation_expired once the offer was booked or lapsed.",
  request: {
    params: OfferTokenPath,
    body: { content: { "application/json": { schema: BookOfferBody } }, required: false },
  },
  responses: {
    201: json(BookingSchema, "Booked"),
    ...offerErrors,
    ...bodyErrors,
    ...calendarWriteErrors,
    402: errorCodes(
      "The offer's services take money or a card online (its reservation's `payment` is not null): an offer link books only what needs no payment; the salon books it with a secret key",
      ["payment_required"],
    ),
    ...conflictErrors("The offer was booked or has lapsed (`reservation_expired`)", [
      "reservation_expired",
    ]),
  },
});

export const handler: RouteHandler<typeof route, OpenEnv> = async (c) => {
  const { token } = c.req.valid("param");
  const body = c.req.valid("json") ?? {};
  const opened = await openLimitedOffer(c, token);
  const { scope, workspace } = opened;
  const origin = publicOrigin(c.env);
  // Its messages count against the client address, as a manage link's do.
  const visitor = await messageVisitor(clientAddress(c));
  const [booking] = await withFields(FIELDS, () =>
    bookOffer(
      {
        scope,
        env: c.env,
        render: { currency: workspace.currency, locale: workspace.locale, origin },
        defer: (task) => c.var.afterResponse(task),
        staff: false,
        limitCustomerChange: (bookingId) => limitCustomerChange(c.env, bookingId),
        manageUrl: (b) => manageUrl(c.env, origin, b) ?? "",
        messageVisitor: visitor,
        // The booking uses the offer's reservation: the entry is booked in the same batch.
        reservationUsed: bookedThroughOffer,
      },
      opened,
      {
        country: workspace.country,
        lastName: body.customer_last_name,
        email: body.customer_email,
        comment: body.comment,
      },
    ),
  );
  if (!booking) throw new Error("no booking was created");
  return c.json(booking, 201);
};
