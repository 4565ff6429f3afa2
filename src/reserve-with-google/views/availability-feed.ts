import { z } from "@hono/zod-openapi";
import type { OpenSlot } from "../rules/open-slot";
import { int64Out } from "../wire/json";
import { FeedMetadataSchema, Int64String } from "./feed-metadata";

export const AvailabilitySchema = z
  .object({
    merchant_id: z.string().openapi({ description: "The location's uuid" }),
    service_id: z.string().openapi({ description: "The service's uuid" }),
    start_sec: Int64String.openapi({ description: "int64: Unix seconds (UTC)" }),
    duration_sec: Int64String.openapi({ description: "int64: the service's duration" }),
    spots_total: Int64String.openapi({
      description:
        "int64: what the start holds with nobody booked (the staff who perform the service there, capped by its scarcest resource, times a group service's seats)",
    }),
    spots_open: Int64String.openapi({
      description: "int64: bookings still possible at that start (the time slots' quantity)",
    }),
  })
  .openapi("RwgFeedAvailability");
export type Availability = z.infer<typeof AvailabilitySchema>;

export const AvailabilityFeedSchema = z
  .object({
    metadata: FeedMetadataSchema,
    service_availability: z.array(z.object({ availability: z.array(AvailabilitySchema) })),
  })
  .openapi("RwgAvailabilityFeed", {
    description: "Google's AvailabilityFeed (proto3 JSON, proto names): one location per shard",
  });

export const availabilityOf = (merchantId: string, slot: OpenSlot): Availability => ({
  merchant_id: merchantId,
  service_id: slot.serviceId,
  start_sec: int64Out(slot.startSec),
  duration_sec: int64Out(slot.durationSec),
  spots_total: int64Out(slot.spotsTotal),
  spots_open: int64Out(slot.spotsOpen),
});
