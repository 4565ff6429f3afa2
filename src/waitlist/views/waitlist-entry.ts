import { z } from "@hono/zod-openapi";
import type { WaitlistEntryRow } from "../queries/waitlist";
import { WAITLIST_STATUSES } from "../../db/schema";
import { toIso } from "../../platform/clock";
import { entryServices, entryTimes } from "../stored-entry";

const instant = z.string().openapi({ example: "2030-05-04T10:00:00Z" });

export const WaitlistEntrySchema = z
  .object({
    uuid: z.uuid(),
    status: z.enum(WAITLIST_STATUSES).openapi({
      description:
        "waiting (in line), offered (a reservation holds time for it: see offer), booked (booked through its offer), expired (its last day passed), canceled (deleted)",
    }),
    location_uuid: z.uuid(),
    services: z.array(z.object({ service_uuid: z.uuid(), staffer_uuid: z.uuid().nullable() })),
    customer_phone: z.string().openapi({ description: "E.164" }),
    customer_first_name: z.string(),
    customer_email: z.string().nullable(),
    from: z.string().openapi({ example: "2030-05-04", description: "First local date wanted" }),
    to: z.string().openapi({ example: "2030-05-20", description: "Last local date wanted" }),
    times: z
      .array(z.object({ start: z.string(), end: z.string() }))
      .nullable()
      .openapi({ description: "Local time windows a visit must lie within; null: any time" }),
    offer: z
      .object({
        reservation_uuid: z.uuid(),
        start: instant,
        expires_at: instant,
      })
      .nullable()
      .openapi({
        description: "While offered: the reservation holding the time, until expires_at",
      }),
    booking_uuid: z.uuid().nullable().openapi({ description: "Once booked through its offer" }),
    created_at: instant,
    updated_at: instant,
  })
  .openapi("WaitlistEntry");

export type WaitlistEntryView = z.infer<typeof WaitlistEntrySchema>;

export function renderWaitlistEntry(row: WaitlistEntryRow): WaitlistEntryView {
  const offered =
    row.status === "offered" && row.offerReservationId && row.offerStart && row.offerExpiresAt;
  return {
    uuid: row.id,
    status: row.status,
    location_uuid: row.locationId,
    services: entryServices(row).map((s) => ({
      service_uuid: s.service_uuid,
      staffer_uuid: s.staffer_uuid ?? null,
    })),
    customer_phone: row.phone,
    customer_first_name: row.firstName,
    customer_email: row.email,
    from: row.fromDate,
    to: row.toDate,
    times: entryTimes(row),
    offer: offered
      ? {
          reservation_uuid: row.offerReservationId as string,
          start: toIso(row.offerStart as number),
          expires_at: toIso(row.offerExpiresAt as number),
        }
      : null,
    booking_uuid: row.bookingId,
    created_at: toIso(row.createdAt),
    updated_at: toIso(row.updatedAt),
  };
}
