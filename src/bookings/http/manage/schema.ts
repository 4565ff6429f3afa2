import { z } from "@hono/zod-openapi";
import { CUSTOMER_CANCEL_REASONS } from "../../rules/booking-rules";
import { dateOrInstant, instant, timezone } from "../../../platform/fields";
import { BookingSchema } from "../../views/booking-schema";
import { LocationSchema } from "../../../catalogue/views/location";
import { SalonSchema } from "../../../catalogue/views/salon";
import { ManagedPackageSchema } from "../../../packages/views/managed-package";

/** The range of a move search, like the slot search's (docs/decisions.md, "Availability"). */
export const MAX_MOVE_RANGE_DAYS = 62;

export const TokenPath = z.object({
  token: z.string().max(128).openapi({
    description:
      "The manage link's token (the `token` of its URL): signed, naming one booking and its customer, valid until a day after the booking's current end, wherever the booking has moved since it was issued. A changed, malformed or expired token, or one sent to a customer the booking is no longer for, is 401 invalid_token.",
    example: "AXq3…",
  }),
});

export const ManageLinkSchema = z
  .object({
    token: z.string().openapi({ description: "The booking's token for its current customer" }),
    url: z.string().openapi({ description: "The widget's manage page with that token" }),
    expires_at: z.string().openapi({
      description:
        "A day after the booking's current end (UTC): a move of the booking moves it, for this link and every one sent before",
    }),
  })
  .openapi("ManageLink");

/** A move's answer: the booking, and its link with the expiry of the new end. */
export const ManagedMoveSchema = BookingSchema.extend({
  manage: ManageLinkSchema,
}).openapi("ManagedMove");

export const ManagedStafferSchema = z
  .object({ uuid: z.string(), first_name: z.string() })
  .openapi("ManagedStaffer");

export const ManagedBookingSchema = z
  .object({
    booking: BookingSchema,
    location: LocationSchema,
    salon: SalonSchema,
    timezone: z.string().openapi({
      description:
        "The salon's time zone (the location's, IANA): the clock the booking's messages write times on and the manage page shows them on. The Booking's own `timezone` is the zone its client asked times in (a widget booking's is the customer's browser's).",
      example: "Europe/Berlin",
    }),
    locale: z.string().openapi({
      description:
        "The customer's language (BCP 47) when known (for a booking made with a publishable key, the language its own request gave, never the stored customer's), else the workspace's: the manage page's default when no `lang` is given",
    }),
    staffers: z.array(ManagedStafferSchema).openapi({
      description:
        "The booking's own staffers by first name (the booking names them by uuid only): what the manage page shows. Nothing else of the workspace's staff reaches the link's holder.",
    }),
    manage: ManageLinkSchema,
    packages: z.array(ManagedPackageSchema).openapi({
      description:
        "The booking customer's packages and memberships, newest first (at most 20): those with credits not yet expired, and memberships whose renewal charge failed; never a void one. A widget books with one as `?package=<uuid>`.",
    }),
  })
  .openapi("ManagedBooking");

export const MoveSlotsQuery = z.object({
  range_start: dateOrInstant,
  range_end: dateOrInstant,
  timezone: timezone.optional(),
});

const clock = {
  start: z.string().openapi({ example: "09:00" }),
  start_formatted: z.number().int().openapi({ description: "Seconds from local midnight" }),
  end: z.string(),
  end_formatted: z.number().int(),
};

export const MoveSlotsSchema = z
  .object({
    timezone: z.string(),
    dates: z.array(
      z.object({
        date: z.string(),
        slots: z.array(
          z.object({
            ...clock,
            reserved_on: z.string().openapi({
              description: "The start as a UTC instant: the `reserved_on` of the reschedule",
            }),
          }),
        ),
      }),
    ),
  })
  .openapi("MoveSlots");

export const ManageCancelBody = z
  .object({
    cancel_reason: z
      .enum(CUSTOMER_CANCEL_REASONS)
      .optional()
      .openapi({ description: "Defaults to canceled" }),
  })
  .openapi("ManageCancel");

export const ManageRescheduleBody = z.object({ reserved_on: instant }).openapi("ManageReschedule");

export { BookingSchema };
