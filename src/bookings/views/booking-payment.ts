import { z } from "@hono/zod-openapi";
import type { bookingPayments } from "../../db/schema";
import { toIso } from "../../platform/clock";

type BookingPaymentRow = typeof bookingPayments.$inferSelect;

const Amount = z.object({ amount: z.number().int() });

export const BookingPaymentSchema = z
  .object({
    mode: z.enum(["none", "card_on_file", "deposit", "prepay"]),
    status: z.enum(["none", "paid", "card_on_file", "refunded", "partially_refunded"]),
    paid_online: z
      .number()
      .int()
      .openapi({ description: "Minor units the customer paid online (fees included)." }),
    refunded: z.number().int().openapi({ description: "Minor units given back." }),
    currency: z.string(),
    policy: z
      .object({
        mode: z.enum(["none", "card_on_file", "deposit", "prepay"]),
        deposit: Amount.optional(),
        late_cancel: z.object({ window_minutes: z.number().int(), fee: Amount }).optional(),
        no_show_fee: Amount.optional(),
      })
      .openapi({
        description:
          "The payment policy in force when the booking was made, its amounts resolved against the booking's prices; later changes of the services' policies never touch it.",
      }),
    cancel_fee_from: z.string().nullable().openapi({
      description:
        "From this instant a customer's cancel costs the late-cancel fee (null: no such fee). Moves with the start when the booking is rescheduled.",
    }),
  })
  .openapi("BookingPayment", {
    description:
      "Money taken online when the customer booked (a checkout). Bookings made with a secret key, or of services that take nothing online, show mode none.",
  });

export type BookingPayment = z.infer<typeof BookingPaymentSchema>;

/** What a booking's payment row says, as the Booking shows it; none without one. */
export function renderBookingPayment(
  row: BookingPaymentRow | null | undefined,
  currency: string,
  startAt: number,
): BookingPayment {
  if (!row) {
    return {
      mode: "none",
      status: "none",
      paid_online: 0,
      refunded: 0,
      currency,
      policy: { mode: "none" },
      cancel_fee_from: null,
    };
  }
  const status =
    row.refunded > 0 && row.refunded >= row.paidOnline
      ? "refunded"
      : row.refunded > 0
        ? "partially_refunded"
        : row.paidOnline > 0
          ? "paid"
          : row.paymentMethod
            ? "card_on_file"
            : "none";
  return {
    mode: row.terms.mode,
    status,
    paid_online: row.paidOnline,
    refunded: row.refunded,
    currency: row.terms.currency,
    policy: row.policy,
    // From the booking's start as it is now: a reschedule moves it along.
    cancel_fee_from: row.policy.late_cancel
      ? toIso(startAt - row.policy.late_cancel.window_minutes * 60_000)
      : null,
  };
}
