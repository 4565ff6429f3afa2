import { z } from "@hono/zod-openapi";
import { MAX_ORDER_AMOUNT } from "../../../domain/money";
import { nonEmpty, optionalText, orderAmount, timezone, uuid } from "../../../lib/fields";

export const DurationSchema = z
  .object({ value: z.number().int(), label: z.string(), iso_8601: z.string() })
  .openapi("Duration");

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

/** Customer and client fields shared by single and cart bookings. */
export const CustomerFields = {
  customer_phone: nonEmpty(64),
  customer_first_name: nonEmpty(),
  customer_last_name: nonEmpty().optional(),
  customer_middle_name: nonEmpty().optional(),
  customer_email: z.email("Must be a valid e-mail address.").max(320).optional(),
  timezone: timezone.optional(),
  booking_comment: optionalText(5000).optional(),
  source: z.string().max(64).optional(),
  customer_browser_tz: z.string().max(64).optional(),
  customer_browser_language: z.string().max(35).optional(),
  booking_callback: flag.optional(),
  booking_google_meet_guest_emails: guestEmails.optional(),
};

export const CreateBookingBody = z
  .object({
    location_uuid: uuid("location_uuid"),
    service_uuid: uuid("service_uuid"),
    reserved_on: z.iso
      .datetime({
        offset: true,
        message: "Must be an ISO 8601 instant such as 2030-05-04T10:00:00Z.",
      })
      .openapi({ example: "2030-05-04T10:00:00Z" }),
    staffer_uuid: uuid("staffer_uuid").optional(),
    ...CustomerFields,
  })
  .openapi("CreateBooking");

/** An amount in minor units and its display string, as the reference pairs them. */
const Money = <N extends string>(name: N) =>
  ({ [name]: z.number().int(), [`${name}_formatted`]: z.string() }) as Record<N, z.ZodNumber> &
    Record<`${N}_formatted`, z.ZodString>;

export const TaxLineSchema = z
  .object({ name: z.string(), rate_bp: z.number().int(), amount: z.number().int() })
  .openapi("TaxLine");

export const OrderedServiceSchema = z
  .object({
    uuid: z.string(),
    service_uuid: z.string(),
    staffer_uuid: z.string(),
    timezone: z.string(),
    reserved_on: z.string(),
    reserved_until: z.string(),
    quantity: z.number().int(),
    name: z.string(),
    currency: z.string(),
    ...Money("price"),
    ...Money("discount"),
    ...Money("original_price"),
    tax_name: z.string().nullable(),
    tax_value: z.number().nullable(),
    duration: DurationSchema,
    original_duration: DurationSchema,
  })
  .openapi("OrderedService");

export const PolicySchema = z
  .object({
    policy_text: z.string().nullable(),
    is_cancelable: z.boolean(),
    cancellation_offset: z.number().int(),
    cancellation_text: z.string().nullable(),
    is_changeable: z.boolean(),
    change_offset: z.number().int(),
    change_text: z.string().nullable(),
  })
  .openapi("BookingPolicy");

export const StatusSchema = z
  .object({ uuid: z.string(), name: z.string(), type: z.string() })
  .openapi("BookingStatus");

export const BookingSchema = z
  .object({
    uuid: z.string(),
    location_uuid: z.string(),
    customer_uuid: z.string(),
    start_time: z.string(),
    end_time: z.string(),
    timezone: z.string(),
    duration: DurationSchema,
    quantity: z.number().int(),
    slots_count: z.number().int(),
    cancel_reason: z.string().nullable(),
    canceled_by: z.string().nullable(),
    is_canceled: z.boolean(),
    is_completed: z.boolean(),
    public_notes: z.string(),
    currency: z.string(),
    status: StatusSchema,
    policy: PolicySchema,
    links: z.array(
      z.object({
        type: z.enum(["ical", "google_meet", "zoom", "microsoft_teams"]),
        link: z.string(),
      }),
    ),
    order: z.object({
      uuid: z.string(),
      tax: z.array(TaxLineSchema),
      ...Money("subtotal"),
      ...Money("amount_paid"),
      ...Money("total"),
    }),
    ordered_services: z.array(OrderedServiceSchema),
  })
  .openapi("Booking");

export type Booking = z.infer<typeof BookingSchema>;

export const BookingPath = z.object({ booking_uuid: uuid("booking_uuid") });

const utcSeconds = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/, "Must be a UTC instant YYYY-MM-DDTHH:MM:SSZ.")
  .refine((v) => {
    const ms = Date.parse(v);
    return !Number.isNaN(ms) && new Date(ms).toISOString().replace(".000Z", "Z") === v;
  }, "Must be a real date and time.")
  .openapi({ example: "2030-05-04T10:00:00Z" });

export const CartService = z.object({
  service_uuid: uuid("service_uuid"),
  staffer_uuid: uuid("staffer_uuid").optional(),
});

export const CreateCartBody = z
  .object({
    location_uuid: uuid("location_uuid"),
    items: z
      .array(
        z.object({
          datetime_start: utcSeconds,
          services: z
            .array(CartService)
            .min(1, "At least 1 service.")
            .max(10, "At most 10 services."),
        }),
      )
      .min(1, "At least 1 item.")
      .max(10, "At most 10 items."),
    ...CustomerFields,
  })
  .openapi("CreateCartBooking");

export const CartResponse = z.object({ bookings: z.array(BookingSchema) }).openapi("CartBookings");

export { utcSeconds };

export const CompleteBody = z
  .object({
    account_uuid: uuid("account_uuid"),
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
        maximum: MAX_ORDER_AMOUNT,
        description: `Minor units, at most ${MAX_ORDER_AMOUNT}; defaults to the booking total`,
      }),
    staffer_uuid: uuid("staffer_uuid").optional(),
  })
  .openapi("CompleteBooking");

export const CancelBody = z
  .object({
    cancel_reason: z
      .enum(["canceled", "didnt_come", "postponed", "wrong_order", "spam", "other"])
      .optional(),
    internal_notes: optionalText(5000).optional(),
    staffer_uuid: uuid("staffer_uuid").optional(),
  })
  .openapi("CancelBooking");

export const StatusBody = z
  .object({ status_uuid: uuid("status_uuid") })
  .openapi("SetBookingStatus");

export const RescheduleBody = z
  .object({
    reserved_on: utcSeconds,
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
