import { z } from "@hono/zod-openapi";
import { DurationSchema } from "../../catalogue/views/duration";
import { BookingPaymentSchema } from "./booking-payment";
import {
  CONFIRMATION_SENT_DESCRIPTION,
  ConfirmationSentSchema,
} from "../../calendar/views/confirmation-sent";

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
    resource_uuids: z.array(z.string()).openapi({
      description:
        "The resources (rooms, chairs, equipment) the service takes, one unit of each for its duration and buffer.",
    }),
  })
  .openapi("OrderedService");

export const PolicySchema = z
  .object({
    policy_text: z.string().nullable(),
    is_cancelable: z.boolean().openapi({
      description:
        "Whether a customer (publishable key) may cancel it now: open, and cancellation_offset is 0 or at least that many minutes remain before the start",
    }),
    cancellation_offset: z.number().int().openapi({ description: "Minutes; 0: no limit" }),
    cancellation_text: z.string().nullable(),
    is_changeable: z.boolean().openapi({
      description:
        "Whether a customer (publishable key) may reschedule it now: open, and change_offset is 0 or at least that many minutes remain before the start",
    }),
    change_offset: z.number().int().openapi({ description: "Minutes; 0: no limit" }),
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
    series_uuid: z.string().nullable().openapi({
      description:
        "The recurring series the booking is an occurrence of (POST /bookings/series), or null",
    }),
    start_time: z.string(),
    end_time: z.string(),
    timezone: z.string(),
    duration: DurationSchema,
    quantity: z.number().int(),
    slots_count: z.number().int(),
    cancel_reason: z.string().nullable(),
    canceled_by: z.string().nullable().openapi({
      description:
        "Who canceled: `customer` for a cancel through a publishable key, the staffer_uuid a secret key gave, or null",
    }),
    is_canceled: z.boolean(),
    is_completed: z.boolean(),
    public_notes: z.string(),
    currency: z.string(),
    status: StatusSchema,
    policy: PolicySchema,
    links: z.array(
      z.object({
        type: z.enum(["ical", "google_meet", "zoom", "microsoft_teams", "manage"]).openapi({
          description:
            "`manage`: the customer's manage page (the link their messages carry as manage_url), only in the answer a customer (publishable key, waitlist offer link) gets for the booking they just made, and only when the Worker signs manage links",
        }),
        link: z.string(),
      }),
    ),
    confirmation_sent_to: z.array(ConfirmationSentSchema).optional().openapi({
      description: CONFIRMATION_SENT_DESCRIPTION,
    }),
    order: z.object({
      uuid: z.string(),
      tax: z.array(TaxLineSchema),
      ...Money("subtotal"),
      ...Money("amount_paid"),
      ...Money("total"),
    }),
    ordered_services: z.array(OrderedServiceSchema),
    payment: BookingPaymentSchema,
  })
  .openapi("Booking");

export type Booking = z.infer<typeof BookingSchema>;
