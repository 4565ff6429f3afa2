import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { insertRows } from "../../../db/bounded";
import { runBatch } from "../../../db/client";
import {
  categories,
  locations,
  serviceLocations,
  serviceStaffers,
  services,
  stafferLocations,
  staffers,
} from "../../../db/schema";
import { whereIn } from "../../../db/scope";
import { findContactText, stripContactText } from "../../../domain/catalogue/contact-text";
import type { AppEnv } from "../../../env";
import { validationError } from "../../../lib/errors";
import { errorResponses, json, jsonBody } from "../../../lib/responses";
import { CreateServiceBody, renderService, ServiceSchema } from "./schema";

export const route = createRoute({
  method: "post",
  path: "/services",
  tags: ["Services"],
  summary: "Create a service (core fields)",
  description:
    "Omitted location_uuids means every location of the workspace; omitted staffer_uuids means every staffer active in the booking widget at one of those locations.",
  request: jsonBody(CreateServiceBody),
  responses: { 201: json(ServiceSchema, "Created"), ...errorResponses },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const body = c.req.valid("json");
  const ws = c.var.workspace;
  const scope = c.var.scope;
  const db = scope.db;
  const [category, allLocations, allStaff] = await db.batch([
    db
      .select()
      .from(categories)
      .where(whereIn(scope, categories, eq(categories.id, body.category_uuid ?? ""))),
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
  ]);

  const problems: Record<string, string[]> = {};
  const address = findContactText(body.name);
  if (address) {
    problems.name = [
      `Must not contain a website or e-mail address ("${address}"); without it the name would read "${stripContactText(body.name)}".`,
    ];
  }
  const cat = category[0];
  if (body.category_uuid && cat?.kind !== "service") {
    problems.category_uuid = ["Unknown service category."];
  }
  const known = new Map(allLocations.map((l) => [l.id, l]));
  const locationIds = body.location_uuids ? [...new Set(body.location_uuids)] : [...known.keys()];
  const unknownLocations = locationIds.filter((id) => !known.has(id));
  if (unknownLocations.length > 0)
    problems.location_uuids = [`Unknown location: ${unknownLocations.join(", ")}.`];
  const here = new Set(locationIds);
  const staff = allStaff.map((s) => ({ ...s, locationIds: JSON.parse(s.locations) as string[] }));
  const worksHere = (s: (typeof staff)[number]) => s.locationIds.some((id) => here.has(id));
  let stafferIds: string[];
  if (body.staffer_uuids) {
    stafferIds = [...new Set(body.staffer_uuids)];
    const byId = new Map(staff.map((s) => [s.id, s]));
    const bad = stafferIds.filter((id) => {
      const s = byId.get(id);
      return !s || !worksHere(s);
    });
    if (bad.length > 0)
      problems.staffer_uuids = [
        `Unknown staffer, or not at the service's locations: ${bad.join(", ")}.`,
      ];
  } else {
    stafferIds = staff.filter((s) => s.active && worksHere(s)).map((s) => s.id);
  }
  if (Object.keys(problems).length > 0) throw validationError(problems);

  const service = {
    id: crypto.randomUUID(),
    workspaceId: ws.id,
    name: body.name,
    description: body.description ?? null,
    images: body.images ?? [],
    price: body.price,
    priceDiscount: body.price_discount ?? null,
    priceType: "base",
    duration: body.duration,
    isPause: body.is_pause ?? (body.pause ?? 0) > 0,
    pause: body.pause ?? 0,
    isPriceHidden: body.is_price_hidden ?? false,
    isDurationHidden: body.is_duration_hidden ?? false,
    isTop: body.is_top ?? false,
    startingAt: body.starting_at ?? false,
    live: body.live ?? true,
    liveInWidget: body.live_in_widget ?? true,
    isAutoAllocated: body.is_auto_allocated ?? false,
    class: body.class ?? null,
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
      locationIds.map((locationId) => ({ workspaceId: ws.id, serviceId: service.id, locationId })),
    ),
    ...insertRows(
      db,
      serviceStaffers,
      stafferIds.map((stafferId) => ({ workspaceId: ws.id, serviceId: service.id, stafferId })),
    ),
  ];
  await runBatch(db, writes);
  const view = {
    service,
    category: cat ?? null,
    locations: locationIds.map((id) => ({ uuid: id, name: known.get(id)?.name ?? "" })),
    stafferIds,
  };
  return c.json(renderService(view, ws.currency, ws.locale), 201);
};
