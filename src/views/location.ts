import { z } from "@hono/zod-openapi";
import type { locations } from "../db/schema";
import { paginated } from "../lib/pagination";

export const LocationSchema = z
  .object({
    uuid: z.string(),
    name: z.string(),
    timezone: z.string(),
    slot_step: z.number().int().openapi({ description: "Minutes between slot starts" }),
    min_notice: z.number().int().openapi({ description: "Minutes of notice a booking needs" }),
  })
  .openapi("Location");

export const LocationList = paginated(LocationSchema, "LocationList");

export const renderLocation = (
  row: typeof locations.$inferSelect,
): z.infer<typeof LocationSchema> => ({
  uuid: row.id,
  name: row.name,
  timezone: row.timezone,
  slot_step: row.slotStep,
  min_notice: row.minNotice,
});
