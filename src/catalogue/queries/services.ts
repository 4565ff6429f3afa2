import { and, asc, count, eq, type SQL, sql } from "drizzle-orm";
import type { PageRequest } from "../../platform/pagination";
import { idIn, insertRows } from "../../db/bounded";
import { IdListSchema, parseJsonColumn, RefListSchema } from "../../db/json-column";
import {
  categories,
  locations,
  resources,
  serviceLocations,
  serviceResources,
  serviceStaffers,
  services,
  stafferLocations,
  staffers,
} from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";
import type { Statement } from "../../db/statement";

/** A service with its category, locations and staff: what a service response renders. */
export interface ServiceRecord {
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

function selectRecords(scope: Scope, where: SQL) {
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

const toRecord = (r: Row): ServiceRecord => ({
  service: r.service,
  category: r.category,
  locations: parseJsonColumn(RefListSchema, r.locations, {
    column: "service_locations (aggregate)",
    id: r.service.id,
  }),
  stafferIds: parseJsonColumn(IdListSchema, r.staffers, {
    column: "service_staffers (aggregate)",
    id: r.service.id,
  }),
  resourceIds: parseJsonColumn(IdListSchema, r.resources, {
    column: "service_resources (aggregate)",
    id: r.service.id,
  }),
});

export async function listServices(scope: Scope, page: PageRequest, filter: ServiceFilter) {
  const where = whereIn(scope, services, filter.widgetOnly ? shownInWidget : undefined);
  // The category join shares column names with services, which D1 batches cannot map: two parallel queries.
  const [totals, rows] = await Promise.all([
    scope.db.select({ total: count() }).from(services).where(where),
    selectRecords(scope, where)
      .orderBy(asc(services.createdAt), asc(services.id))
      .limit(page.perPage)
      .offset(page.offset),
  ]);
  return { total: totals[0]?.total ?? 0, records: rows.map(toRecord) };
}

export async function getService(
  scope: Scope,
  id: string,
  filter: ServiceFilter,
): Promise<ServiceRecord | null> {
  const where = whereIn(
    scope,
    services,
    eq(services.id, id),
    filter.widgetOnly ? shownInWidget : undefined,
  );
  const [row] = await selectRecords(scope, where).limit(1);
  return row ? toRecord(row) : null;
}

/** The columns of a service that `PATCH /services/{uuid}` changes. */
export type ServiceColumns = Partial<
  Pick<typeof services.$inferInsert, "capacity" | "paymentPolicy">
>;

/** Sets some of a service's columns; false when the workspace has no such service. */
export async function updateServiceColumns(
  scope: Scope,
  id: string,
  columns: ServiceColumns,
): Promise<boolean> {
  const changed = await scope.db
    .update(services)
    .set(columns)
    .where(whereIn(scope, services, eq(services.id, id)))
    .returning({ id: services.id });
  return changed.length > 0;
}

/**
 * What creating a service checks, in one round trip: the category asked for
 * (null when none or not found), the workspace's locations, its staff with
 * the locations each works at, and which of `resourceIds` are the workspace's.
 */
export async function readServiceRefs(
  scope: Scope,
  asked: { categoryId: string; resourceIds: readonly string[] },
) {
  const { db } = scope;
  const [category, allLocations, allStaff, knownResources] = await db.batch([
    db
      .select()
      .from(categories)
      .where(whereIn(scope, categories, eq(categories.id, asked.categoryId))),
    db
      .select({ id: locations.id, name: locations.name })
      .from(locations)
      .where(whereIn(scope, locations)),
    db
      .select({
        id: staffers.id,
        active: staffers.isActiveInWidget,
        locations: sql<string>`(select json_group_array(${stafferLocations.locationId}) from ${stafferLocations} where ${stafferLocations.stafferId} = ${staffers.id})`,
      })
      .from(staffers)
      .where(whereIn(scope, staffers)),
    db
      .select({ id: resources.id })
      .from(resources)
      .where(whereIn(scope, resources, idIn(resources.id, asked.resourceIds))),
  ]);
  return {
    category: category[0] ?? null,
    locations: allLocations,
    staff: allStaff.map((s) => ({
      id: s.id,
      active: s.active,
      locationIds: parseJsonColumn(IdListSchema, s.locations, {
        column: "staffer_locations (aggregate)",
        id: s.id,
      }),
    })),
    resourceIds: knownResources.map((r) => r.id),
  };
}

/**
 * Inserts a new service with the locations, staff and resources it is
 * offered at, with, and on: one statement for the service and, per link
 * table, as few as D1's parameter limit allows (none for no links).
 */
export function insertService(
  scope: Scope,
  service: ServiceRecord["service"],
  links: { locationIds: string[]; stafferIds: string[]; resourceIds: string[] },
): Statement[] {
  const { db, workspaceId } = scope;
  const serviceId = service.id;
  return [
    db.insert(services).values({ ...service, workspaceId }),
    ...insertRows(
      db,
      serviceLocations,
      links.locationIds.map((locationId) => ({ workspaceId, serviceId, locationId })),
    ),
    ...insertRows(
      db,
      serviceStaffers,
      links.stafferIds.map((stafferId) => ({ workspaceId, serviceId, stafferId })),
    ),
    ...insertRows(
      db,
      serviceResources,
      links.resourceIds.map((resourceId) => ({ workspaceId, serviceId, resourceId })),
    ),
  ];
}
