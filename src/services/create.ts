import { eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { idIn, insertRows } from "../db/bounded";
import { runBatch } from "../db/client";
import type { ServiceView } from "../db/queries/services";
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
} from "../db/schema";
import { type Scope, whereIn } from "../db/scope";
import { findContactText, stripContactText } from "../domain/catalogue/contact-text";
import type { Problem } from "../domain/problems";
import { InvalidError } from "../lib/errors";

export interface NewService {
  name: string;
  /** Minutes. */
  duration: number;
  /** Minor units. */
  price: number;
  description?: string;
  images?: string[];
  categoryId?: string;
  isPause?: boolean;
  /** Buffer after the service, minutes. */
  pause?: number;
  priceDiscount?: number;
  live?: boolean;
  liveInWidget?: boolean;
  isDurationHidden?: boolean;
  isPriceHidden?: boolean;
  isTop?: boolean;
  isAutoAllocated?: boolean;
  startingAt?: boolean;
  class?: string;
  /** Omitted: every location of the workspace. */
  locationIds?: string[];
  /** Omitted: every staffer active in the booking widget at one of those locations. */
  stafferIds?: string[];
  /** Each once; one unit of each is needed for the whole duration and buffer. */
  resourceIds?: string[];
}

/** What a new service can be wrong about: its name, category, locations, staff, each resource. */
export type NewServiceSubject =
  | { is: "name" }
  | { is: "category" }
  | { is: "locations" }
  | { is: "staffers" }
  | { is: "resource"; index: number };

/** Creates a service with its locations and staff: 1 read and 1 write round trip. */
export async function createService(scope: Scope, input: NewService): Promise<ServiceView> {
  const db = scope.db;
  const resourceIds = input.resourceIds ?? [];
  const [category, allLocations, allStaff, knownResources] = await db.batch([
    db
      .select()
      .from(categories)
      .where(whereIn(scope, categories, eq(categories.id, input.categoryId ?? ""))),
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
      .where(whereIn(scope, resources, idIn(resources.id, resourceIds))),
  ]);

  const problems: Problem<NewServiceSubject>[] = [];
  const refuse = (about: NewServiceSubject, message: string) =>
    problems.push({ about, messages: [message] });
  const address = findContactText(input.name);
  if (address) {
    refuse(
      { is: "name" },
      `Must not contain a website or e-mail address ("${address}"); without it the name would read "${stripContactText(input.name)}".`,
    );
  }
  const cat = category[0];
  if (input.categoryId && cat?.kind !== "service") {
    refuse({ is: "category" }, "Unknown service category.");
  }
  const known = new Map(allLocations.map((l) => [l.id, l]));
  const locationIds = input.locationIds ? [...new Set(input.locationIds)] : [...known.keys()];
  const unknownLocations = locationIds.filter((id) => !known.has(id));
  if (unknownLocations.length > 0)
    refuse({ is: "locations" }, `Unknown location: ${unknownLocations.join(", ")}.`);
  const here = new Set(locationIds);
  const staff = allStaff.map((s) => ({ ...s, locationIds: JSON.parse(s.locations) as string[] }));
  const worksHere = (s: (typeof staff)[number]) => s.locationIds.some((id) => here.has(id));
  let stafferIds: string[];
  if (input.stafferIds) {
    stafferIds = [...new Set(input.stafferIds)];
    const byId = new Map(staff.map((s) => [s.id, s]));
    const bad = stafferIds.filter((id) => {
      const s = byId.get(id);
      return !s || !worksHere(s);
    });
    if (bad.length > 0)
      refuse(
        { is: "staffers" },
        `Unknown staffer, or not at the service's locations: ${bad.join(", ")}.`,
      );
  } else {
    stafferIds = staff.filter((s) => s.active && worksHere(s)).map((s) => s.id);
  }
  const ownResources = new Set(knownResources.map((r) => r.id));
  resourceIds.forEach((id, i) => {
    if (!ownResources.has(id)) refuse({ is: "resource", index: i }, "Unknown resource.");
  });
  if (problems.length > 0) throw new InvalidError(problems);

  const service = {
    id: crypto.randomUUID(),
    workspaceId: scope.workspaceId,
    name: input.name,
    description: input.description ?? null,
    images: input.images ?? [],
    price: input.price,
    priceDiscount: input.priceDiscount ?? null,
    priceType: "base",
    duration: input.duration,
    isPause: input.isPause ?? (input.pause ?? 0) > 0,
    pause: input.pause ?? 0,
    isPriceHidden: input.isPriceHidden ?? false,
    isDurationHidden: input.isDurationHidden ?? false,
    isTop: input.isTop ?? false,
    startingAt: input.startingAt ?? false,
    live: input.live ?? true,
    liveInWidget: input.liveInWidget ?? true,
    isAutoAllocated: input.isAutoAllocated ?? false,
    class: input.class ?? null,
    categoryId: cat?.id ?? null,
    taxName: null,
    taxRateBp: null,
    createdAt: Date.now(),
  };
  const writes: BatchItem<"sqlite">[] = [
    db.insert(services).values(service),
    ...insertRows(
      db,
      serviceLocations,
      locationIds.map((locationId) => ({
        workspaceId: scope.workspaceId,
        serviceId: service.id,
        locationId,
      })),
    ),
    ...insertRows(
      db,
      serviceStaffers,
      stafferIds.map((stafferId) => ({
        workspaceId: scope.workspaceId,
        serviceId: service.id,
        stafferId,
      })),
    ),
    ...insertRows(
      db,
      serviceResources,
      resourceIds.map((resourceId) => ({
        workspaceId: scope.workspaceId,
        serviceId: service.id,
        resourceId,
      })),
    ),
  ];
  await runBatch(db, writes);
  return {
    service,
    category: cat ?? null,
    locations: locationIds.map((id) => ({ uuid: id, name: known.get(id)?.name ?? "" })),
    stafferIds,
    resourceIds,
  };
}
