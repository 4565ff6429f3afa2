import { and, count, eq, type SQL, sql } from "drizzle-orm";
import { idIn } from "../../db/bounded";
import {
  bookings,
  customers,
  goods,
  locations,
  promocodes,
  promocodeUses,
  services,
  stafferLocations,
  staffers,
  voucherTemplates,
} from "../../db/schema";
import { type Scope, whereIn } from "../../db/scope";
import { packageLines } from "../package-lines";
import { promocodeMatches } from "./promocodes";
import { vouchersByCodes } from "./vouchers";

/** Everything a POS order request refers to, looked up by id. */
export interface OrderRefs {
  locationId: string;
  sellerId: string | null;
  customerId: string | null;
  goodIds: string[];
  serviceIds: string[];
  voucherTemplateIds: string[];
  /** Package templates (src/packages answers what they are: see package-lines.ts). */
  packageIds: string[];
  stafferIds: string[];
  bookingIds: string[];
  promocode: string | null;
  /** Bookings whose own promocode uses do not count against the code's limit. */
  excludedBookingIds: string[];
  /** Stored codes of vouchers the request would pay with (a preview's). */
  voucherCodes: string[];
}

/**
 * The catalogue rows, people and promocode an order request names, in one
 * round trip. Every query is single-table, as D1 batches map rows by column name.
 */
export async function loadOrderRefs(scope: Scope, refs: OrderRefs) {
  const { db } = scope;
  const offered = packageLines().offered(scope, refs.packageIds);
  const promoUses = (...extra: SQL[]) =>
    sql<number>`(${db
      .select({ n: count() })
      .from(promocodeUses)
      .where(and(eq(promocodeUses.promocodeId, promocodes.id), ...extra))})`;
  const [
    location,
    seller,
    sellerLocation,
    customer,
    goodRows,
    serviceRows,
    templateRows,
    stafferRows,
    bookingRows,
    promo,
    offeredVouchers,
    ...offeredPackages
  ] = await db.batch([
    db
      .select()
      .from(locations)
      .where(whereIn(scope, locations, eq(locations.id, refs.locationId))),
    db
      .select()
      .from(staffers)
      .where(whereIn(scope, staffers, eq(staffers.id, refs.sellerId ?? ""))),
    db
      .select({ stafferId: stafferLocations.stafferId })
      .from(stafferLocations)
      .where(
        whereIn(
          scope,
          stafferLocations,
          eq(stafferLocations.stafferId, refs.sellerId ?? ""),
          eq(stafferLocations.locationId, refs.locationId),
        ),
      ),
    db
      .select()
      .from(customers)
      .where(whereIn(scope, customers, eq(customers.id, refs.customerId ?? ""))),
    db
      .select()
      .from(goods)
      .where(whereIn(scope, goods, idIn(goods.id, refs.goodIds))),
    db
      .select()
      .from(services)
      .where(whereIn(scope, services, idIn(services.id, refs.serviceIds))),
    db
      .select()
      .from(voucherTemplates)
      .where(whereIn(scope, voucherTemplates, idIn(voucherTemplates.id, refs.voucherTemplateIds))),
    db
      .select({ id: staffers.id })
      .from(staffers)
      .where(whereIn(scope, staffers, idIn(staffers.id, refs.stafferIds))),
    db
      .select({ id: bookings.id })
      .from(bookings)
      .where(whereIn(scope, bookings, idIn(bookings.id, refs.bookingIds))),
    db
      .select({
        promocode: promocodes,
        used: promoUses().as("used"),
        usedByExcluded: promoUses(idIn(promocodeUses.bookingId, refs.excludedBookingIds)).as(
          "used_by_excluded",
        ),
      })
      .from(promocodes)
      .where(whereIn(scope, promocodes, promocodeMatches(refs.promocode ?? ""))),
    vouchersByCodes(scope, refs.voucherCodes),
    ...offered.statements,
  ]);
  return {
    location: location[0] ?? null,
    seller: seller[0] ?? null,
    sellerWorksHere: sellerLocation.length > 0,
    customer: customer[0] ?? null,
    goods: new Map(goodRows.map((g) => [g.id, g])),
    services: new Map(serviceRows.map((s) => [s.id, s])),
    voucherTemplates: new Map(templateRows.map((t) => [t.id, t])),
    stafferIds: new Set(stafferRows.map((s) => s.id)),
    bookingIds: new Set(bookingRows.map((b) => b.id)),
    promocode: refs.promocode === null ? null : (promo[0] ?? null),
    packages: offered.parse(offeredPackages),
    vouchers: offeredVouchers,
  };
}

export type LoadedRefs = Awaited<ReturnType<typeof loadOrderRefs>>;
