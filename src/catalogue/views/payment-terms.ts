import { z } from "@hono/zod-openapi";
import { PAYMENT_MODES } from "./payment-policy";

/**
 * What a customer booking online is asked for under the payment policies of
 * the services booked (a reservation's, a booking's), fixed when it is made:
 * later changes of a policy never touch it.
 */
export const PaymentTermsSchema = z
  .object({
    mode: z.enum(PAYMENT_MODES).openapi({
      description:
        "The strictest mode of the services (prepay > deposit > card_on_file > none): what checkout does (take money, or save a card for later fees).",
    }),
    amount_due_now: z.number().int().openapi({
      description:
        "Paid at checkout, minor units: the deposits and prepaid prices of the services added up (0 for card_on_file).",
    }),
    currency: z.string().openapi({ description: "The workspace's currency." }),
    late_cancel: z
      .object({
        window_minutes: z.number().int().openapi({
          description:
            "A cancel less than this many minutes before the start costs the fee (the longest window of the services).",
        }),
        fee: z.number().int().openapi({ description: "Minor units: the services' fees added up." }),
      })
      .nullable()
      .openapi({ description: "null when no service has a late-cancel fee." }),
    no_show_fee: z.number().int().nullable().openapi({
      description:
        "Minor units charged for a no-show (the services' fees added up); null when none.",
    }),
  })
  .openapi("PaymentTerms");
