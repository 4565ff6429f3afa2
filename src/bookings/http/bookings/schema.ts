import { z } from "@hono/zod-openapi";
import { CANCEL_REASONS, CUSTOMER_CANCEL_REASONS } from "../../rules/booking-rules";
import { MAX_ORDER_AMOUNT, MAX_ORDER_PAID } from "../../../platform/rules/money";
import {
  instant,
  nonEmpty,
  optionalText,
  personName,
  orderAmount,
  seats,
  timezone,
  uuid,
} from "../../../platform/fields";
import { BookingSchema } from "../../views/booking-schema";
import { SeriesSchema } from "../../views/series";
import { CartItems, CartService } from "../../../calendar/http/cart-items";

/** The reference declares booking_callback as a string but describes a boolean flag: accept both. */
export const flag = z
  .union([
    z.boolean(),
    z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1"),
  ])
  .openapi({ type: "boolean" });

const guestEmails = z
  .string()
  .max(2000)
  .refine(
    (v) =>
      v
        .split(",")
        .map((e) => e.trim())
        .filter(Boolean)
        .every((e) => z.email().safeParse(e).success),
    "Must be a comma-separated list of e-mail addresses.",
  );

/** How a booking finds its customer, for the create and cart operations' descriptions. */
export const CUSTOMER_MATCH =
  "The customer is found by phone (normalised to E.164 with the workspace country) or created, and the booking is theirs (customer_uuid). A secret key's booking refreshes a found customer's names and e-mail from the body; a publishable key's booking never changes them: the names and e-mail it sends are stored only when it creates the customer. Messages of a publishable key's booking go to the first name and e-mail its own request sends (none: no e-mail), never to the stored ones; a secret key's booking's messages go to the stored customer.";

/** Customer and client fields shared by single and cart bookings. */
export const CustomerFields = {
  customer_phone: nonEmpty(64),
  customer_first_name: personName(),
  customer_last_name: personName().optional(),
  customer_middle_name: personName().optional(),
  customer_email: z.email("Must be a valid e-mail address.").max(320).optional(),
  timezone: timezone.optional(),
  booking_comment: optionalText(5000).optional(),
  source: z.string().max(64).optional(),
  customer_browser_tz: z.string().max(64).optional(),
  customer_browser_language: z.string().max(35).optional(),
  booking_callback: flag.optional(),
  booking_google_meet_guest_emails: guestEmails.optional(),
};

/** Books what a reservation holds (POST /reservations); the body must ask for exactly that. */
const reservationUuid = uuid("reservation_uuid").optional().openapi({
  description:
    "Book the time this reservation holds: the body must name its location, starts, services and (if given) staffers; the reservation is used up in the same write. 409 reservation_expired once it expired or was used or deleted.",
});

/** A credit of one of the customer's packages pays for the service. */
const customerPackageUuid = uuid("customer_package_uuid").optional().openapi({
  description:
    "Pay for the service with a credit of this customer package (GET /customer-packages): the package must be the booking customer's (found by phone) and a credit of it must name the service (422 otherwise); it must be active with a credit left that lasts past the booking's start (409 package_unavailable otherwise: void, past due, expired, used up, or taken by another booking meanwhile). The service's price is then 0 (its catalogue price shown as the discount), it asks no payment online, and one credit per seat is reserved until the booking completes (used) or is cancelled (given back; a late cancel or a no-show under the service's policy uses it).",
});

/** A cart's items, each service of which may be paid by a customer package's credit. */
const BookingCartItems = CartItems.element
  .extend({
    services: z
      .array(CartService.extend({ customer_package_uuid: customerPackageUuid }))
      .min(1, "At least 1 service.")
      .max(10, "At most 10 services."),
  })
  .array()
  .min(1, "At least 1 item.")
  .max(10, "At most 10 items.");

/** What booking a group service means, for the create operations' descriptions. */
export const SEATS =
  "A group service (capacity > 1) books seats: bookings of it at one start with one staffer join one session (the staffer's time, and one unit of each resource, busy once), `quantity` seats each (1..capacity, default 1; more is 422); the price is per seat. More seats than the session has left is 409 session_full.";

export const CreateBookingBody = z
  .object({
    location_uuid: uuid("location_uuid"),
    service_uuid: uuid("service_uuid"),
    reserved_on: instant,
    staffer_uuid: uuid("staffer_uuid").optional(),
    quantity: seats.optional(),
    reservation_uuid: reservationUuid,
    customer_package_uuid: customerPackageUuid,
    ...CustomerFields,
  })
  .openapi("CreateBooking");

export const BookingPath = z.object({ booking_uuid: uuid("booking_uuid") });

export const CreateCartBody = z
  .object({
    location_uuid: uuid("location_uuid"),
    items: BookingCartItems,
    reservation_uuid: reservationUuid,
    ...CustomerFields,
  })
  .openapi("CreateCartBooking");

export const CartResponse = z.object({ bookings: z.array(BookingSchema) }).openapi("CartBookings");

export const CompleteBody = z
  .object({
    account_uuid: uuid("account_uuid").optional().openapi({
      description:
        "The account the till's payment is credited to, of the booking's location. Required unless it would take nothing: a booking whose customer paid everything online (or whose vouchers pay what is asked) completes without it",
    }),
    internal_notes: optionalText(5000).optional(),
    // Declared as a string by the reference, amounts in minor units: accept both forms.
    paid_amount: z
      .union([
        orderAmount,
        z
          .string()
          .regex(/^\d{1,16}$/, "Must be a non-negative integer amount in minor units.")
          .transform(Number)
          .pipe(orderAmount),
      ])
      .optional()
      .openapi({
        type: "integer",
        minimum: 0,
        maximum: MAX_ORDER_AMOUNT,
        description: `Minor units, at most ${MAX_ORDER_AMOUNT}; defaults to the booking total. The order's payments in all (every booking of a cart pays into one order) may not pass ${MAX_ORDER_PAID}.`,
      }),
    staffer_uuid: uuid("staffer_uuid").optional(),
  })
  .openapi("CompleteBooking");

export const CancelBody = z
  .object({
    cancel_reason: z
      .enum(CANCEL_REASONS)
      .optional()
      .openapi({
        description: `Defaults to canceled. A publishable key (a customer) may give only ${CUSTOMER_CANCEL_REASONS.join(", ")} (others: 422)`,
      }),
    internal_notes: optionalText(5000).optional().openapi({
      description: "Staff only: with a publishable key, sending it is 422",
    }),
    staffer_uuid: uuid("staffer_uuid").optional().openapi({
      description:
        "Who canceled (staff only: with a publishable key, sending it is 422, and canceled_by is `customer`)",
    }),
    charge_fee: z.boolean().optional().openapi({
      description:
        "Staff only (with a publishable key, sending it is 422): for a booking paid online or with a card on file, keep the late-cancel fee of its payment terms out of what was paid online and charge what that does not cover to the saved card, whatever the time; with cancel_reason didnt_come, the no-show fee instead. Without it staff's cancel refunds everything paid online. A booking without online payment has nothing to charge",
    }),
  })
  .openapi("CancelBooking");

export const StatusBody = z
  .object({ status_uuid: uuid("status_uuid") })
  .openapi("SetBookingStatus");

export const RescheduleBody = z
  .object({
    reserved_on: instant,
    is_send_notification_on_reschedule: flag.optional(),
  })
  .openapi("RescheduleBooking");

export const ChangeStafferBody = z
  .object({ staffer_uuid: uuid("staffer_uuid"), service_uuid: uuid("service_uuid").optional() })
  .openapi("ChangeBookingStaffer");

export const ReplaceServiceBody = z
  .object({ service_uuid: uuid("service_uuid") })
  .openapi("ReplaceBookingService");

export const PublicNotesBody = z
  .object({ value: optionalText(5000) })
  .openapi("BookingPublicNotes");

/** POST /bookings/series: a single booking's body (no reservation) plus its recurrence. */
export const CreateSeriesBody = CreateBookingBody.omit({ reservation_uuid: true })
  .extend({
    recurrence: z
      .object({
        rule: z.string().min(1, "Must not be empty.").max(200).openapi({
          description:
            "An RFC 5545 RRULE: FREQ DAILY, WEEKLY or MONTHLY; INTERVAL 1..52 (default 1); COUNT 2..52 or UNTIL (a date YYYYMMDD or a UTC date-time YYYYMMDDTHHMMSSZ) within 366 days of the first start; BYDAY (weekdays MO..SU, no numbers) only with WEEKLY. The first start (reserved_on) must be an occurrence of the rule, every occurrence is within 366 days of it, and a rule makes 2 to 52 occurrences. Any other part is refused (422). Occurrences keep reserved_on's wall-clock time in the location's zone across DST changes.",
          example: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;COUNT=12",
        }),
      })
      .openapi("Recurrence"),
    on_conflict: z.enum(["reject", "skip"]).default("reject").openapi({
      description:
        "reject (default): if any occurrence cannot be booked, nothing is (409 slot_unavailable with `conflicts`); skip: book every occurrence that fits and list the others in `skipped`",
    }),
  })
  .openapi("CreateBookingSeries");

export const SeriesCreated = z
  .object({
    series: SeriesSchema,
    bookings: z.array(BookingSchema).max(52),
    skipped: z
      .array(
        z.object({
          start: z.string(),
          reason: z.enum(["slot_unavailable", "outside_working_hours"]),
          alternatives: z.array(z.object({ start: z.string(), staffer_uuid: z.string() })).max(5),
        }),
      )
      .max(51)
      .openapi({
        description:
          "With on_conflict skip: the occurrences not booked, why (`slot_unavailable`: taken by a booking, blocked time or a hold; `outside_working_hours`: no eligible staffer works then) and up to 5 free starts near each. Empty with reject.",
      }),
  })
  .openapi("SeriesCreated");
