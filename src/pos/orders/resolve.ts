import type { LoadedRefs, OrderRefs } from "../queries/order-refs";
import type { OrderLine, PromocodeRule, TermsSubject } from "../rules";
import { MAX_VOUCHERS_PER_ORDER, promocodeIsUsable } from "../rules";
import { type Problem, problem, type Subject } from "../../platform/rules/problems";

/** A line as the client sent it, whatever its kind. */
export interface RequestedLine {
  kind: OrderLine["kind"];
  refId: string;
  price: number;
  quantity: number;
  stafferId: string | null;
  bookingId: string | null;
}

export interface ResolvedLine extends OrderLine {
  refId: string;
  name: string;
  article: string | null;
  stafferId: string | null;
  bookingId: string | null;
  position: number;
}

/**
 * What a line can be wrong about, named by its kind and its place among the
 * lines of that kind (`{ is: "line", kind: "good", index: 1 }`: the second
 * good): what it sells (the good, service, voucher or package template), its staffer,
 * its booking.
 */
export type LineSubject =
  | { is: "line"; kind: OrderLine["kind"]; index: number }
  | { is: "line staffer"; kind: OrderLine["kind"]; index: number }
  | { is: "line booking"; kind: OrderLine["kind"]; index: number };

/**
 * What an order (created or calculated) can be wrong about: its branch, its
 * lines, its promocode, its terms, and how many vouchers or packages it would issue.
 */
export type OrderSubject =
  | { is: "location" }
  | LineSubject
  | { is: "promocode" }
  | TermsSubject
  | { is: "vouchers" }
  | { is: "packages" };

/** Where a check adds what it refuses (a list of those and more), so that one 422 lists them all. */
export interface Refusals<S extends Subject> {
  push(...problems: Problem<S>[]): unknown;
}

export function refsFor(
  locationId: string,
  lines: RequestedLine[],
  extra: Partial<
    Pick<OrderRefs, "sellerId" | "customerId" | "promocode" | "excludedBookingIds" | "voucherCodes">
  >,
): OrderRefs {
  const ids = (kind: OrderLine["kind"]) => [
    ...new Set(lines.filter((l) => l.kind === kind).map((l) => l.refId)),
  ];
  const present = (xs: (string | null)[]) => [
    ...new Set(xs.filter((x): x is string => x !== null)),
  ];
  return {
    locationId,
    sellerId: extra.sellerId ?? null,
    customerId: extra.customerId ?? null,
    goodIds: ids("good"),
    serviceIds: ids("service"),
    voucherTemplateIds: ids("voucher"),
    packageIds: ids("package"),
    stafferIds: present(lines.map((l) => l.stafferId)),
    bookingIds: present(lines.map((l) => l.bookingId)),
    promocode: extra.promocode ?? null,
    excludedBookingIds: extra.excludedBookingIds ?? [],
    voucherCodes: extra.voucherCodes ?? [],
  };
}

/**
 * Checks every line against the catalogue and prices it there: names, articles
 * and taxes come from the catalogue, the unit price from the till. Problems are
 * collected into `problems`, so one 422 lists all of them.
 */
export function resolveLines(
  requested: RequestedLine[],
  refs: LoadedRefs,
  problems: Refusals<LineSubject>,
  defaultStafferId: string | null,
): ResolvedLine[] {
  const out: ResolvedLine[] = [];
  const seen: Record<OrderLine["kind"], number> = { good: 0, service: 0, voucher: 0, package: 0 };
  requested.forEach((r, position) => {
    // Its place among the lines of its kind: the request lists each kind apart.
    const at = { kind: r.kind, index: seen[r.kind]++ };
    const fail = (is: LineSubject["is"], message: string) => {
      problems.push(problem({ is, ...at }, message));
    };
    if (r.stafferId !== null && !refs.stafferIds.has(r.stafferId))
      fail("line staffer", "Unknown staffer.");
    if (r.bookingId !== null && !refs.bookingIds.has(r.bookingId))
      fail("line booking", "Unknown booking.");
    const base = {
      kind: r.kind,
      refId: r.refId,
      unitPrice: r.price,
      quantity: r.quantity,
      stafferId: r.stafferId ?? defaultStafferId,
      bookingId: r.bookingId,
      position,
    };
    if (r.kind === "good") {
      const good = refs.goods.get(r.refId);
      if (!good) return fail("line", "Unknown good.");
      if (!good.isPayable) return fail("line", "This good is not for sale.");
      out.push({
        ...base,
        name: good.name,
        article: good.article,
        catalogPrice: good.price ?? 0,
        taxName: good.taxName,
        taxRateBp: good.taxRateBp,
      });
    } else if (r.kind === "service") {
      const service = refs.services.get(r.refId);
      if (!service) return fail("line", "Unknown service.");
      out.push({
        ...base,
        name: service.name,
        article: null,
        catalogPrice: service.price,
        taxName: service.taxName,
        taxRateBp: service.taxRateBp,
      });
    } else if (r.kind === "package") {
      const offered = refs.packages.get(r.refId);
      if (!offered) return fail("line", "Unknown package.");
      if (offered.refusal !== null) return fail("line", offered.refusal);
      // Like a voucher, a package is a prepayment: tax is for the services it pays, when booked.
      out.push({
        ...base,
        name: offered.name,
        article: null,
        catalogPrice: offered.price,
        taxName: null,
        taxRateBp: null,
      });
    } else {
      const template = refs.voucherTemplates.get(r.refId);
      if (!template) return fail("line", "Unknown voucher template.");
      // A voucher is a prepayment: its tax is due when it is redeemed, not sold.
      out.push({
        ...base,
        name: template.name,
        article: null,
        catalogPrice: template.price,
        taxName: null,
        taxRateBp: null,
      });
    }
  });
  return out;
}

/** The promocode the request named, if the workspace has it and it has uses left. */
export function resolvePromocode(
  code: string | null,
  refs: LoadedRefs,
  problems: Refusals<{ is: "promocode" }>,
): (PromocodeRule & { id: string; maxUses: number | null }) | null {
  if (code === null) return null;
  const found = refs.promocode;
  if (!found) {
    problems.push(problem({ is: "promocode" }, "Unknown promocode."));
    return null;
  }
  const { promocode: p, used, usedByExcluded } = found;
  if (
    !promocodeIsUsable({
      maxUses: p.maxUses,
      usedCount: used,
      usesByExcludedBookings: usedByExcluded,
    })
  ) {
    problems.push(problem({ is: "promocode" }, noUsesLeft));
    return null;
  }
  return {
    id: p.id,
    code: p.code,
    percent: p.discountPercent,
    amount: p.discountAmount,
    maxUses: p.maxUses,
  };
}

/** Packages the lines would issue when paid: one per unit of each package line. */
export const packageUnits = (lines: readonly { kind: OrderLine["kind"]; quantity: number }[]) =>
  lines.reduce((n, l) => n + (l.kind === "package" ? l.quantity : 0), 0);

export const tooManyPackages = (max: number) =>
  `An order may issue at most ${max} packages (one per unit of its package lines).`;

/** Whether any line sells packages (the order must then name their customer). */
export const sellsPackages = (lines: readonly { kind: OrderLine["kind"] }[]) =>
  lines.some((l) => l.kind === "package");

export const packagesNeedCustomer =
  "An order selling packages must name the customer they are for.";

/** Vouchers the lines would issue when paid: one per unit of each voucher line. */
export const voucherUnits = (lines: readonly { kind: OrderLine["kind"]; quantity: number }[]) =>
  lines.reduce((n, l) => n + (l.kind === "voucher" ? l.quantity : 0), 0);

export const tooManyVouchers = `An order may issue at most ${MAX_VOUCHERS_PER_ORDER} vouchers (one per unit of its voucher lines).`;

/** A promocode whose uses ran out, when the order was read or when its write lost the last one. */
export const noUsesLeft = "This promocode has no uses left.";
