import { eq } from "drizzle-orm";
import { locations } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";

/** The workspace's location a dashboard shows (name and zone); null when it has none such. */
export async function dashboardLocation(scope: Scope, locationId: string) {
  const [row] = await scope.db
    .select({ id: locations.id, name: locations.name, timezone: locations.timezone })
    .from(locations)
    .where(whereIn(scope, locations, eq(locations.id, locationId.toLowerCase())))
    .limit(1);
  return row ?? null;
}
