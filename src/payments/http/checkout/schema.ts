import { z } from "@hono/zod-openapi";
import { errorCodes } from "../../../http/responses";

/** A page the provider's hosted checkout sends the customer back to. */
const returnUrl = (what: string) =>
  z
    .url({ protocol: /^https?$/, message: "Must be an http(s) URL." })
    .max(2048)
    .openapi({ description: what });

/** The body fields every hosted checkout takes; `back` says what Back leaves behind. */
export const returnPages = (back: string) => ({
  success_url: returnUrl(
    "Where the provider's page sends the customer once paid; `{CHECKOUT_SESSION_ID}` in it is replaced by the session's id.",
  ),
  cancel_url: returnUrl(`Where its Back link goes; ${back}`),
});

export const CheckoutSchema = z
  .object({
    checkout_url: z.url().openapi({ description: "The provider's hosted payment page." }),
    expires_at: z.string().openapi({
      example: "2030-05-04T10:31:00Z",
      description: "The page and the reservation's hold last until this instant.",
    }),
  })
  .openapi("Checkout");

export const paymentsUnavailable = {
  503: errorCodes(
    "Payments are not configured, or the payment provider did not answer; nothing was charged",
    ["payments_unavailable"],
  ),
};
