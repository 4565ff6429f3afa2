import type { LoadedRefs, OrderRefs } from "../db/queries/order-refs";
import type { OrderLine, PromocodeRule } from "../domain/pricing";
import { MAX_VOUCHERS_PER_ORDER, promocodeIsUsable } from "../domain/pricing";
import type { FieldErrors } from "../lib/errors";

/** A line as the client sent it, whatever its kind. */
export interface RequestedLine {
  kind: OrderLine["kind"];
  refId: string;
  price: number;
  quantity: number;
  stafferId: string | null;
  bookingId: string | null;
  /** Where the line sits in the request body, for field errors (`goods.0`). */
  field: string;
}

export interface ResolvedLine extends OrderLine {
  refId: string;
  name: string;
  article: string | null;
  stafferId: string | null;
  bookingId: string | null;
  position: number;
}

interface LineBody {
  price: number;
  quantity: number;
  staffer_uuid?: string | undefined;
  booking_uuid?: string | undefined;
}

const toLine = (
  kind: OrderLine["kind"],
  list: string,
  refId: string,
  l: LineBody,
  i: number,
): RequestedLine => ({
  kind,
  refId,
  price: l.price,
  quantity: l.quantity,
  stafferId: l.staffer_uuid ?? null,
  bookingId: l.booking_uuid ?? null,
  field: `${list}.${i}`,
});

/** The goods, services and vouchers of a request body as one list, in that order. */
export function requestedLines(body: {
  goods?: (LineBody & { good_uuid: string })[] | undefined;
  services?: (LineBody & { service_uuid: string })[] | undefined;
  vouchers?: (LineBody & { voucher_template_uuid: string })[] | undefined;
}): RequestedLine[] {
  return [
    ...(body.goods ?? []).map((l, i) => toLine("good", "goods", l.good_uuid, l, i)),
    ...(body.services ?? []).map((l, i) => toLine("service", "services", l.service_uuid, l, i)),
    ...(body.vouchers ?? []).map((l, i) =>
      toLine("voucher", "vouchers", l.voucher_template_uuid, l, i),
    ),
  ];
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
    stafferIds: present(lines.map((l) => l.stafferId)),
    bookingIds: present(lines.map((l) => l.bookingId)),
    promocode: extra.promocode ?? null,
    excludedBookingIds: extra.excludedBookingIds ?? [],
    voucherCodes: extra.voucherCodes ?? [],
  };
}

const idField: Record<OrderLine["kind"], string> = {
  good: "good_uuid",
  service: "service_uuid",
  voucher: "voucher_template_uuid",
};

/**
 * Checks every line against the catalogue and prices it there: names, articles
 * and taxes come from the catalogue, the unit price from the till. Problems are
 * collected, so one 422 lists all of them.
 */
export function resolveLines(
  requested: RequestedLine[],
  refs: LoadedRefs,
  errors: FieldErrors,
  defaultStafferId: string | null,
): ResolvedLine[] {
  const out: ResolvedLine[] = [];
  requested.forEach((r, position) => {
    const fail = (field: string, message: string) => {
      errors[`${r.field}.${field}`] = [message];
    };
    if (r.stafferId !== null && !refs.stafferIds.has(r.stafferId))
      fail("staffer_uuid", "Unknown staffer.");
    if (r.bookingId !== null && !refs.bookingIds.has(r.bookingId))
      fail("booking_uuid", "Unknown booking.");
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
      if (!good) return fail(idField.good, "Unknown good.");
      if (!good.isPayable) return fail(idField.good, "This good is not for sale.");
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
      if (!service) return fail(idField.service, "Unknown service.");
      out.push({
        ...base,
        name: service.name,
        article: null,
        catalogPrice: service.price,
        taxName: service.taxName,
        taxRateBp: service.taxRateBp,
      });
    } else {
      const template = refs.voucherTemplates.get(r.refId);
      if (!template) return fail(idField.voucher, "Unknown voucher template.");
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
  errors: FieldErrors,
): (PromocodeRule & { id: string; maxUses: number | null }) | null {
  if (code === null) return null;
  const found = refs.promocode;
  if (!found) {
    errors.promocode = ["Unknown promocode."];
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
    errors.promocode = ["This promocode has no uses left."];
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

/** Vouchers the lines would issue when paid: one per unit of each voucher line. */
export const voucherUnits = (lines: readonly { kind: OrderLine["kind"]; quantity: number }[]) =>
  lines.reduce((n, l) => n + (l.kind === "voucher" ? l.quantity : 0), 0);

export const tooManyVouchers = `An order may issue at most ${MAX_VOUCHERS_PER_ORDER} vouchers (one per unit of its voucher lines).`;
