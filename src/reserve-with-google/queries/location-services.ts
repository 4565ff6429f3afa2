import { asc } from "drizzle-orm";
import { inSubquery } from "../../db/bounded";
import { services } from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";
import { servicesOfferedAt } from "./offered";

/** The services offered at a location, whole rows (for `bookableThroughGoogle`), by id. */
export const servicesAtLocation = (scope: Scope, locationId: string) =>
  scope.db
    .select()
    .from(services)
    .where(whereIn(scope, services, inSubquery(services.id, servicesOfferedAt(scope, locationId))))
    .orderBy(asc(services.id));
