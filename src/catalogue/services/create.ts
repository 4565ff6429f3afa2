import { runBatch } from "../../db/client";
import { insertService, readServiceRefs, type ServiceRecord } from "../queries/services";
import type { Scope } from "../../db/scope";
import { findContactText, stripContactText } from "../rules/contact-text";
import type { Problem } from "../../platform/rules/problems";
import { InvalidError } from "../../platform/errors";
import type { PaymentPolicy } from "../rules/payment-policy";
import { storedPolicy } from "./payment-policy";

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
  /** Seats per session (1..100); above 1 a group service. */
  capacity?: number | undefined;
  /** What a customer booking online pays; omitted: nothing (mode none). */
  paymentPolicy?: PaymentPolicy | undefined;
}

/** What a new service can be wrong about: its name, category, locations, staff, each resource. */
export type NewServiceSubject =
  | { is: "name" }
  | { is: "category" }
  | { is: "locations" }
  | { is: "staffers" }
  | { is: "resource"; index: number };

/** Creates a service with its locations and staff: 1 read and 1 write round trip. */
export async function createService(scope: Scope, input: NewService): Promise<ServiceRecord> {
  const resourceIds = input.resourceIds ?? [];
  const refs = await readServiceRefs(scope, {
    categoryId: input.categoryId ?? "",
    resourceIds,
  });

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
  const cat = refs.category;
  if (input.categoryId && cat?.kind !== "service") {
    refuse({ is: "category" }, "Unknown service category.");
  }
  const known = new Map(refs.locations.map((l) => [l.id, l]));
  const locationIds = input.locationIds ? [...new Set(input.locationIds)] : [...known.keys()];
  const unknownLocations = locationIds.filter((id) => !known.has(id));
  if (unknownLocations.length > 0)
    refuse({ is: "locations" }, `Unknown location: ${unknownLocations.join(", ")}.`);
  const here = new Set(locationIds);
  const staff = refs.staff;
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
  const ownResources = new Set(refs.resourceIds);
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
    capacity: input.capacity ?? 1,
    paymentPolicy: input.paymentPolicy ? storedPolicy(input.paymentPolicy) : null,
    createdAt: Date.now(),
  };
  await runBatch(scope.db, insertService(scope, service, { locationIds, stafferIds, resourceIds }));
  return {
    service,
    category: cat,
    locations: locationIds.map((id) => ({ uuid: id, name: known.get(id)?.name ?? "" })),
    stafferIds,
    resourceIds,
  };
}
