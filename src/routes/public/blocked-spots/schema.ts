import { z } from "@hono/zod-openapi";
import type { blockedSpots } from "../../../db/schema";
import { optionalText, uuid } from "../../../lib/fields";

const utcInstant = z.iso
  .datetime({ message: "Must be a UTC instant such as 2026-05-04T12:00:00Z." })
  .openapi({ example: "2026-05-04T12:00:00Z" });

/** Longest single block: a long leave is several blocks, which keeps slot search reads bounded. */
export const MAX_BLOCK_DAYS = 366;

export const CreateBlockedSpotBody = z
  .object({
    location_uuid: uuid("location_uuid"),
    starts_at: utcInstant,
    ends_at: utcInstant,
    comment: optionalText(1000).optional(),
    class: z.string().max(64).optional(),
  })
  .superRefine((body, ctx) => {
    const start = Date.parse(body.starts_at);
    const end = Date.parse(body.ends_at);
    if (end <= start) {
      ctx.addIssue({ code: "custom", path: ["ends_at"], message: "Must be after starts_at." });
    } else if (end - start > MAX_BLOCK_DAYS * 86_400_000) {
      ctx.addIssue({
        code: "custom",
        path: ["ends_at"],
        message: `A blocked spot may span at most ${MAX_BLOCK_DAYS} days.`,
      });
    }
  })
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
