import { eq } from "drizzle-orm";
import { serviceLocations } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";

/** The ids of the services offered at a location, as a subquery an availability read embeds. */
export const servicesOfferedAt = (scope: Scope, locationId: string) =>
  scope.db
    .select({ id: serviceLocations.serviceId })
    .from(serviceLocations)
    .where(whereIn(scope, serviceLocations, eq(serviceLocations.locationId, locationId)));
