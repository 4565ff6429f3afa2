import { z } from "@hono/zod-openapi";
import type { staffers } from "../db/schema";
import { paginated } from "../lib/pagination";

export const StafferSchema = z
  .object({
    uuid: z.string(),
    first_name: z.string(),
    last_name: z.string().nullable(),
    email: z.string().nullable(),
    is_active_in_widget: z.boolean(),
    permissions: z.array(z.string()),
    location_uuids: z.array(z.string()),
  })
  .openapi("Staffer");

export const StafferList = paginated(StafferSchema, "StafferList");

export const renderStaffer = (
  row: typeof staffers.$inferSelect,
  locationIds: string[],
): z.infer<typeof StafferSchema> => ({
  uuid: row.id,
  first_name: row.firstName,
  last_name: row.lastName,
  email: row.email,
  is_active_in_widget: row.isActiveInWidget,
  permissions: row.permissions,
  location_uuids: [...locationIds].sort(),
});
