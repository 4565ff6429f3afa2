import { z } from "@hono/zod-openapi";
import { uuid } from "../../../platform/fields";

export const RebuildQuery = z.object({
  location_uuid: uuid("location_uuid").optional().openapi({
    description: "Rebuild this location's rollups only; by default every location's",
  }),
});

export const RebuildResultSchema = z
  .object({
    locations: z.number().int().openapi({ description: "Locations whose rollups were rebuilt" }),
    rows: z
      .number()
      .int()
      .openapi({ description: "Rollup rows written (rows left all zero are not)" }),
  })
  .openapi("ReportsRebuild");
export type RebuildResult = z.infer<typeof RebuildResultSchema>;
