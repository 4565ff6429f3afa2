import { z } from "@hono/zod-openapi";
import { manageExpiry, manageUrl } from "../../bookings/manage-link";
import { toIso } from "../../platform/clock";
import type { Settings } from "../../platform/config";
import type { BookedOffer } from "../offer-book";

export const OfferStatusSchema = z.enum(["open", "booked"]).openapi({
  description:
    "open: the time is held for the customer to book; booked: it was booked with this offer (through its link, or a widget using its reservation), and `booking` is that booking while it is still this customer's",
});

export const OfferBookingSchema = z
  .object({
    uuid: z.uuid(),
    start_time: z.string().openapi({ example: "2030-05-04T10:00:00Z" }),
    end_time: z.string().openapi({ example: "2030-05-04T11:00:00Z" }),
    manage_url: z.string().nullable().openapi({
      description:
        "The booking's manage page (the link its messages carry as manage_url); null once that link no longer opens (a day after the booking's end) or when the Worker signs no manage links",
    }),
  })
  .openapi("WaitlistOfferBooking");

/**
 * What the offer's page shows of the booking it became: when it is now (it
 * may have moved since) and its manage link. Nothing else of the booking nor
 * of any other: the token is the only credential, and the manage page holds
 * the rest behind its own link.
 */
export function renderOfferBooking(
  env: Settings,
  origin: string,
  booked: BookedOffer,
  now = Date.now(),
): z.infer<typeof OfferBookingSchema> {
  const opens = now < manageExpiry(booked.endAt);
  return {
    uuid: booked.id,
    start_time: toIso(booked.startAt),
    end_time: toIso(booked.endAt),
    manage_url: opens ? manageUrl(env, origin, booked) : null,
  };
}
