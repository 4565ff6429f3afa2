import { z } from "@hono/zod-openapi";
import type { blockedSpots } from "../../../db/schema";
import { blockRange, optionalText, instant, uuid } from "../../../platform/fields";

/** Longest single block: a long leave is several blocks, which keeps slot search reads bounded. */
export const MAX_BLOCK_DAYS = 366;

export const CreateBlockedSpotBody = z
  .object({
    location_uuid: uuid("location_uuid"),
    starts_at: instant,
    ends_at: instant,
    comment: optionalText(1000).optional(),
    class: z.string().max(64).optional(),
  })
  .superRefine(blockRange(MAX_BLOCK_DAYS, "A blocked spot"))
  .openapi("CreateBlockedSpot");

export const BlockedSpotSchema = z
  .object({
    uuid: z.string(),
    staffer_uuid: z.string(),
    location_uuid: z.string(),
    starts_at: z.string(),
    ends_at: z.string(),
    comment: z.string().nullable(),
    class: z.string().nullable(),
  })
  .openapi("BlockedSpot");

export const StafferPath = z.object({ staffer_uuid: uuid("staffer_uuid") });

export const renderBlockedSpot = (
  row: typeof blockedSpots.$inferSelect,
): z.infer<typeof BlockedSpotSchema> => ({
  uuid: row.id,
  staffer_uuid: row.stafferId,
  location_uuid: row.locationId,
  starts_at: row.startsAtRaw,
  ends_at: row.endsAtRaw,
  comment: row.comment,
  class: row.class,
});
