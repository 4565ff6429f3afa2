import { z } from "@hono/zod-openapi";
import { personName } from "../../../platform/fields";
import { OfferBookingSchema, OfferStatusSchema } from "../../views/offer-booking";
import { SalonSchema } from "../../../catalogue/views/salon";

export const OfferTokenPath = z.object({
  token: z.string().max(128).openapi({
    description:
      "The offer link's token (the `token` of its URL): it opens the entry's current offer only; a newer offer of the same entry has a new one.",
  }),
});

const instant = z.string().openapi({ example: "2030-05-04T10:00:00Z" });

export const WaitlistOfferSchema = z
  .object({
    entry_uuid: z.uuid(),
    customer_first_name: z.string(),
    locale: z.string().openapi({ description: "The language to show it in" }),
    location_uuid: z.uuid(),
    location_name: z.string(),
    salon: SalonSchema,
    timezone: z.string().openapi({ description: "The location's IANA zone" }),
    start: instant,
    expires_at: instant.openapi({
      description: "Book before this instant; then it goes to the next in line",
    }),
    services: z.array(
      z.object({
        service_uuid: z.uuid(),
        name: z.string(),
        staffer_uuid: z.uuid(),
        staffer_first_name: z.string().nullable(),
        starts_at: instant,
        ends_at: instant,
      }),
    ),
    status: OfferStatusSchema,
    booking: z.union([OfferBookingSchema, z.null()]).openapi({
      description: "The booking the offer became (status booked); null while it is open",
    }),
  })
  .openapi("WaitlistOffer");

export const BookOfferBody = z
  .object({
    customer_last_name: personName().optional(),
    customer_email: z.email("Must be a valid e-mail address.").max(320).optional(),
    comment: z.string().max(1000).optional(),
  })
  .openapi("BookWaitlistOffer");
