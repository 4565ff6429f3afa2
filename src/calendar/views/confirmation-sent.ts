import { z } from "@hono/zod-openapi";

/**
 * Whom a customer's confirmation was written to go out to, as the answers of
 * the customer's own booking show it (a booking, a reservation's checkout).
 * Here, below the bookings that render it, so a reservation's view shares it.
 */
export const ConfirmationSentSchema = z
  .object({
    channel: z.enum(["email", "sms"]),
    to: z.string().openapi({ description: "The e-mail address or phone number (E.164)" }),
  })
  .openapi("ConfirmationSentTo");

export const CONFIRMATION_SENT_DESCRIPTION =
  "The confirmation messages this booking's write wrote to go out (one per channel the salon's message settings enable and the customer did not opt out of); none written `skipped` (a quota on the customer's messages, an opt-out): then it is empty. Only in the answer a customer gets for the booking they just made.";
