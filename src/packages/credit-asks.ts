import { nothing, type Read } from "../db/reads";
import type { Scope } from "../db/scope";
import type { CreditRequest } from "./booking-credits";
import { type PackageRecord, customerPackagesRead } from "./queries/customer-packages";

/** An item of a booking request as the credits see it: its start and services, some naming a package. */
export interface CreditItem {
  start: number;
  services: readonly {
    serviceId: string;
    quantity?: number | undefined;
    packageId?: string | undefined;
  }[];
}

/** The services of the items that name a package: one credit per seat, lasting past the item's start. */
export const creditAsks = (items: readonly CreditItem[]): CreditRequest[] =>
  items.flatMap((item, k) =>
    item.services.flatMap((s, position) =>
      s.packageId
        ? [
            {
              item: k,
              service: position,
              packageId: s.packageId,
              serviceId: s.serviceId,
              start: item.start,
              count: s.quantity ?? 1,
            },
          ]
        : [],
    ),
  );

/** The packages a booking request names, as a read for its own read batch (none: nothing read). */
export const namedPackagesRead = (
  scope: Scope,
  ids: readonly (string | undefined)[],
): Read<PackageRecord[]> => {
  const named = [...new Set(ids.filter((id): id is string => Boolean(id)))];
  return named.length > 0 ? customerPackagesRead(scope, named) : nothing([]);
};
