import { z } from "@hono/zod-openapi";
import { uuid } from "../../../platform/fields";
import { PaginationQuery, paginated } from "../../../platform/pagination";
import { CartItems } from "../cart-items";
import { PaymentTermsSchema } from "../../../catalogue/views/payment-terms";
import { ConfirmationSentSchema } from "../../views/confirmation-sent";

export const MIN_TTL_SECONDS = 60;
export const MAX_TTL_SECONDS = 900;
export const DEFAULT_TTL_SECONDS = 300;

export const CreateReservationBody = z
  .object({
    location_uuid: uuid("location_uuid"),
    items: CartItems,
    ttl_seconds: z
      .number()
      .int("Must be a whole number of seconds.")
      .min(MIN_TTL_SECONDS, `At least ${MIN_TTL_SECONDS} seconds.`)
      .max(MAX_TTL_SECONDS, `At most ${MAX_TTL_SECONDS} seconds.`)
      .optional()
      .openapi({ description: `How long the time is held; default ${DEFAULT_TTL_SECONDS}.` }),
  })
  .openapi("CreateReservation");

const instant = z.string().openapi({ example: "2030-05-04T10:00:00Z" });

export const ReservationSchema = z
  .object({
    uuid: z.uuid(),
    location_uuid: z.uuid(),
    expires_at: instant.openapi({
      description: "The time is held until this instant (whole seconds); then it is free again.",
    }),
    held_by: z.enum(["publishable", "secret"]).openapi({
      description:
        "The kind of API key that made it. A publishable key's hold (a booking widget's) gives way to staff: a secret key's booking or change, a blocked spot or a resource block over it ends it.",
    }),
    items: z.array(
      z.object({
        datetime_start: instant,
        services: z.array(
          z.object({
            service_uuid: z.uuid(),
            staffer_uuid: z.uuid().openapi({ description: "Resolved, also when auto-allocated." }),
            starts_at: instant,
            ends_at: instant.openapi({ description: "The service's end, without its buffer." }),
            resource_uuids: z.array(z.uuid()).openapi({
              description: "The resources held for the service, one unit of each.",
            }),
            quantity: z.number().int().openapi({
              description: "Seats held in a group service's session (1 otherwise).",
            }),
          }),
        ),
      }),
    ),
    // Not PaymentTermsSchema.nullable().openapi(…): that would rewrite the PaymentTerms component.
    payment: z.union([PaymentTermsSchema, z.null()]).openapi({
      description:
        "What a customer booking it online pays, from its services' payment policies when it was made (each service's policy per seat, added up; the strictest mode): null when nothing. When not null, a publishable key books it only through POST /reservations/{uuid}/checkout (POST /bookings with it is 402 `payment_required`); a secret key books it as any other.",
    }),
    checkout: z
      .object({
        status: z.enum(["open", "complete", "expired"]).openapi({
          description:
            "open: the customer is on the payment page (or about to be); complete: paid (booking_uuid names the booking it became; null when the time was lost meanwhile and the money went back); expired: the payment page lapsed unpaid.",
        }),
        booking_uuid: z.uuid().nullable().openapi({
          description: "The booking it became (the first, for several items); null until then.",
        }),
        manage_url: z.string().nullable().openapi({
          description:
            "The customer's manage page of the booking it became (the link its messages carry as manage_url); null until it booked, in the list, and when the Worker signs no manage links.",
        }),
        confirmation_sent_to: z.array(ConfirmationSentSchema).openapi({
          description:
            "Whom the booking's confirmation was written to, by the same rule as a booking's confirmation_sent_to (none `canceled` or skipped for a reason of the request or the salon; opted_out and recipient_quota skips named as if written); empty until it booked, and in the list.",
        }),
      })
      .nullable()
      .openapi({ description: "The hosted checkout started for it; null when none was." }),
  })
  .openapi("Reservation");

export const ReservationPath = z.object({ reservation_uuid: uuid("reservation_uuid") });

export const ListReservationsQuery = PaginationQuery.extend({
  location_uuid: uuid("location_uuid").optional(),
  staffer_uuid: uuid("staffer_uuid")
    .optional()
    .openapi({ description: "Only reservations holding time of this staffer" }),
});

export const ReservationList = paginated(ReservationSchema, "ReservationList");
