import { asc, count, eq, type SQL, sql } from "drizzle-orm";
import type { PageRequest } from "../../lib/pagination";
import {
  categories,
  locations,
  serviceLocations,
  serviceResources,
  serviceStaffers,
  services,
} from "../schema";
import { type Scope, whereIn } from "../scope";

/** A service with its category, locations and staff: what a service response renders. */
export interface ServiceView {
  service: typeof services.$inferSelect;
  category: typeof categories.$inferSelect | null;
  locations: { uuid: string; name: string }[];
  stafferIds: string[];
  resourceIds: string[];
}

// A service's locations and staff ride along as JSON so a page stays one query.
const locationJson = sql<string>`(select json_group_array(json_object('uuid', ${locations.id}, 'name', ${locations.name})) from ${serviceLocations} join ${locations} on ${locations.id} = ${serviceLocations.locationId} where ${serviceLocations.serviceId} = ${services.id})`;
const stafferJson = sql<string>`(select json_group_array(${serviceStaffers.stafferId}) from ${serviceStaffers} where ${serviceStaffers.serviceId} = ${services.id})`;
const resourceJson = sql<string>`(select json_group_array(${serviceResources.resourceId}) from ${serviceResources} where ${serviceResources.serviceId} = ${services.id})`;

function selectViews(scope: Scope, where: SQL) {
  return scope.db
    .select({
      service: services,
      category: categories,
      locations: locationJson,
      staffers: stafferJson,
      resources: resourceJson,
    })
    .from(services)
    .leftJoin(categories, eq(categories.id, services.categoryId))
    .where(where);
}

type Row = {
  service: typeof services.$inferSelect;
  category: typeof categories.$inferSelect | null;
  locations: string;
  staffers: string;
  resources: string;
};

const toView = (r: Row): ServiceView => ({
  service: r.service,
  category: r.category,
  locations: JSON.parse(r.locations) as { uuid: string; name: string }[],
  stafferIds: JSON.parse(r.staffers) as string[],
  resourceIds: JSON.parse(r.resources) as string[],
});

export async function listServices(scope: Scope, page: PageRequest) {
  const where = whereIn(scope, services);
  // The category join shares column names with services, which D1 batches cannot map: two parallel queries.
  const [totals, rows] = await Promise.all([
    scope.db.select({ total: count() }).from(services).where(where),
    selectViews(scope, where)
      .orderBy(asc(services.createdAt), asc(services.id))
      .limit(page.perPage)
      .offset(page.offset),
  ]);
  return { total: totals[0]?.total ?? 0, views: rows.map(toView) };
}

export async function getService(scope: Scope, id: string): Promise<ServiceView | null> {
  const [row] = await selectViews(scope, whereIn(scope, services, eq(services.id, id))).limit(1);
  return row ? toView(row) : null;
}
