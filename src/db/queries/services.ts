import { and, asc, count, eq, type SQL, sql } from "drizzle-orm";
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

/**
 * What a publishable key (the booking widget, or anyone holding the page's
 * key) may see and book: services that are live and live in the widget.
 * The others exist for it no more than another workspace's.
 */
export const shownInWidget = and(eq(services.live, true), eq(services.liveInWidget, true));

/** `widgetOnly`: only the services a publishable key may see (`shownInWidget`). */
export interface ServiceFilter {
  widgetOnly: boolean;
}

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

export async function listServices(scope: Scope, page: PageRequest, filter: ServiceFilter) {
  const where = whereIn(scope, services, filter.widgetOnly ? shownInWidget : undefined);
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

export async function getService(
  scope: Scope,
  id: string,
  filter: ServiceFilter,
): Promise<ServiceView | null> {
  const where = whereIn(
    scope,
    services,
    eq(services.id, id),
    filter.widgetOnly ? shownInWidget : undefined,
  );
  const [row] = await selectViews(scope, where).limit(1);
  return row ? toView(row) : null;
}
