import { z } from "@hono/zod-openapi";
import { RESOURCE_KINDS, type resources } from "../../db/schema";
import { toIso } from "../../platform/clock";
import { paginated } from "../../platform/pagination";

export const ResourceSchema = z
  .object({
    uuid: z.string(),
    location_uuid: z.string(),
    name: z.string(),
    kind: z.enum(RESOURCE_KINDS),
    quantity: z.number().int().openapi({
      description: "How many units there are; each unit serves one booking at a time",
    }),
    created_at: z.string(),
  })
  .openapi("Resource");

export const ResourceList = paginated(ResourceSchema, "ResourceList");

export const renderResource = (
  row: typeof resources.$inferSelect,
): z.infer<typeof ResourceSchema> => ({
  uuid: row.id,
  location_uuid: row.locationId,
  name: row.name,
  kind: row.kind,
  quantity: row.quantity,
  created_at: toIso(row.createdAt),
});
