import { z } from "@hono/zod-openapi";
import type { staffers } from "../../db/schema";
import { paginated } from "../../platform/pagination";

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

/**
 * A staffer as a publishable key (a booking page, so anyone) sees them: who
 * can be picked and where. No e-mail, permissions or schedule: those are staff's.
 */
export const PublicStafferSchema = z
  .object({
    uuid: z.string(),
    first_name: z.string(),
    last_name: z.string().nullable(),
    locations: z
      .array(z.object({ uuid: z.string(), name: z.string() }).strict())
      .openapi({ description: "The locations the staffer works at, sorted by uuid" }),
  })
  .strict()
  .openapi("PublicStaffer");

export const PublicStafferList = paginated(PublicStafferSchema, "PublicStafferList");

export interface PublicStafferRow {
  id: string;
  firstName: string;
  lastName: string | null;
  locations: { uuid: string; name: string }[];
}

export const renderPublicStaffer = (
  row: PublicStafferRow,
): z.infer<typeof PublicStafferSchema> => ({
  uuid: row.id,
  first_name: row.firstName,
  last_name: row.lastName,
  locations: [...row.locations].sort((a, b) => (a.uuid < b.uuid ? -1 : 1)),
});
