import { errorCodes } from "../../../http/responses";
import {
  BOOKING_MESSAGES,
  BOOKING_QUOTA,
  PUBLIC_BOOKINGS,
  PUBLIC_MESSAGES,
  PUBLIC_VISIT,
  VISITOR_QUOTA,
} from "../../../platform/rules/public-visit";

/** How a publishable key's bookings are bounded, for the OpenAPI descriptions. */
export const PUBLISHABLE_BOOKINGS =
  `With a publishable key (a booking widget) and no reservation_uuid: at most ${PUBLIC_VISIT.services} services and ${PUBLIC_VISIT.staffMinutes / 60} hours of staff time (the sum of the services' durations) in one request (422, before any time is taken), as for a reservation. ` +
  `Each visitor (the key and the client address) makes at most ${PUBLIC_BOOKINGS.perVisitor} bookings in ${PUBLIC_BOOKINGS.windowSeconds / 3600} hours, canceled ones included unless staff canceled them, a cart's each and a booking from a reservation too (429 \`too_many_bookings\`, Retry-After until the oldest of them is ${PUBLIC_BOOKINGS.windowSeconds / 3600} hours old). Secret keys have neither bound. ` +
  `A publishable key's booking is told at the e-mail and first name its own request gives (none: no e-mail), for every later message of it too, never at the customer's stored ones. ` +
  `The messages one visitor's writes cause (confirmations, reschedules, cancels; each channel one) past ${PUBLIC_MESSAGES.perVisitor} in ${PUBLIC_MESSAGES.windowSeconds / 3600} hours are written \`skipped\` with error \`${VISITOR_QUOTA}\`; the write itself succeeds.`;

/** What bounds the messages of a customer's change (publishable key or manage link), for the OpenAPI descriptions. */
export const CUSTOMER_CHANGE_MESSAGES =
  `A customer's change (publishable key or manage link) tells the customer, but its messages count against the visitor's daily bound (by client address): past ${PUBLIC_MESSAGES.perVisitor} in ${PUBLIC_MESSAGES.windowSeconds / 3600} hours they are written \`skipped\` with error \`${VISITOR_QUOTA}\`, and the change itself succeeds. ` +
  `Whoever moves it and from wherever, customers' moves of one booking tell its customer at most ${BOOKING_MESSAGES.perBooking} times in ${BOOKING_MESSAGES.windowSeconds / 3600} hours on each channel: past that the booking-rescheduled message is written \`skipped\` with error \`${BOOKING_QUOTA}\` and the move itself succeeds. A cancel (once per booking) is not bounded per booking. Staff changes are bounded by neither and do not count.`;

/** 402 of a customer's booking whose services take money online (`refuseUnpaid`). */
export const paymentRequiredError = {
  402: errorCodes(
    "Made with a publishable key for services whose payment policy takes money or a card online, or with a reservation whose `payment` is not null: such a booking is made by paying through POST /reservations/{uuid}/checkout. Refused before any time is taken or anything written; a secret key (staff) is never asked",
    ["payment_required"],
  ),
} as const;
