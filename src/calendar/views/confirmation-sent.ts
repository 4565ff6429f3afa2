import { z } from "@hono/zod-openapi";
import { MESSAGE_CHANNELS } from "../../db/schema";

/**
 * Whom a customer's confirmation was written to go out to, as the answers of
 * the customer's own booking show it (a booking, a reservation's checkout).
 * Here, below the bookings that render it, so a reservation's view shares it.
 */
export const ConfirmationSentSchema = z
  .object({
    channel: z.enum(MESSAGE_CHANNELS),
    to: z.string().openapi({ description: "The e-mail address or phone number (E.164)" }),
  })
  .openapi("ConfirmationSentTo");

export const CONFIRMATION_SENT_DESCRIPTION =
  "The confirmation messages this booking's write wrote (one per channel the salon's message settings enable), except those `canceled` or written `skipped` for a reason of the request or the salon (sms_country, visitor_quota, booking_quota, workspace_quota). One skipped for the recipient's own state (opted_out, recipient_quota) is named as if written, so the answer does not depend on what is stored about that phone or inbox. Empty when none is named. Only in the answer a customer gets for the booking they just made.";
