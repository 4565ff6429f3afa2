import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { type FieldNames, withFields } from "../../../http/request-fields";
import type { CompleteSubject } from "../../ops/complete";
import { completeBooking } from "../../ops/complete";
import { MAX_ORDER_PAID } from "../../../platform/rules/money";
import type { PublicEnv } from "../../../http/env";
import { jsonBody } from "../../../http/responses";
import { changeResponses } from "./change-responses";
import { PaymentVouchers, voucherOffers } from "../../../pos/http/orders/schema";
import { voucherFields } from "../../../pos/http/orders/fields";
import { BookingPath, CompleteBody } from "./schema";

const CompleteWithVouchers = CompleteBody.extend({
  vouchers: PaymentVouchers.optional().openapi({
    description:
      "Vouchers that pay first (each up to its amount or balance) out of paid_amount; account_uuid takes the rest",
  }),
}).openapi("CompleteBookingWithVouchers");

/** Where the body carries what the change can be refused about. */
const FIELDS: FieldNames<CompleteSubject> = {
  account: "account_uuid",
  staffer: "staffer_uuid",
  "paid amount": "paid_amount",
  ...voucherFields("vouchers"),
};

export const route = defineRoute({
  operationId: "completeBooking",
  keys: "secret",
  method: "put",
  path: "/bookings/{booking_uuid}/status/complete",
  tags: ["Bookings"],
  summary: "Mark a booking complete",
  description: `Marks the booking completed and credits paid_amount (default: what is still due, the booking's own total less what its customer paid online and kept after refunds) to the account, which must belong to the booking's location. What was paid online counts towards the order (its amount_paid; it is already on the location's online account); a booking paid in full online completes with no account_uuid (the order's payment_method is then online_account), and without an account nothing may be left for one to take (422 on account_uuid), as the online account takes none of the till's money (422 on account_uuid). The vouchers listed pay first, each up to its amount or balance, out of paid_amount; the account takes the rest (a void or spent voucher, or an amount above a balance, is 409 voucher_unavailable; an unknown code 422). The booking's order becomes paid once what was paid covers its total. Sums stay exact: one order takes at most ${MAX_ORDER_PAID} in payments in all (a cart's completes add up; past it, 422 on paid_amount) and an account's balance stays within ±(2^53 − 1) (past it, 422 on account_uuid); nothing is written then. A booking is completed at most once: a second complete, or a complete after a cancel, answers 409 booking_closed. Package credits the booking holds (booked with customer_package_uuid) are used, each with a package-credit-used event.`,
  request: { params: BookingPath, ...jsonBody(CompleteWithVouchers) },
  responses: changeResponses(
    {
      description:
        "The booking is completed or canceled (`booking_closed`), or another request changed it at the same moment (`booking_changed`), or a voucher cannot pay what was asked of it (`voucher_unavailable`) or was spent by another payment at the same moment (`voucher_balance_changed`)",
      codes: [
        "booking_closed",
        "booking_changed",
        "voucher_unavailable",
        "voucher_balance_changed",
      ],
    },
    "A field is invalid, account_uuid is unknown or belongs to another location, or staffer_uuid is unknown; the order's payments or the account's balance would pass its cap",
  ),
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { booking_uuid: bookingId } = c.req.valid("param");
  const body = c.req.valid("json");
  const booking = await withFields(FIELDS, () =>
    completeBooking(c.var.deps, bookingId, {
      accountId: body.account_uuid,
      internalNotes: body.internal_notes,
      paidAmount: body.paid_amount,
      stafferId: body.staffer_uuid,
      vouchers: voucherOffers(body.vouchers),
    }),
  );
  return c.json(booking, 200);
};
