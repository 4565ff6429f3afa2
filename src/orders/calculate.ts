import { loadOrderRefs } from "../db/queries/order-refs";
import type { Scope } from "../db/scope";
import {
  type Invoice,
  NOTHING_PAID,
  orderInvoice,
  orderTerms,
  termsErrors,
} from "../domain/pricing";
import { type FieldErrors, validationError } from "../lib/errors";
import { type RequestedLine, refsFor, resolveLines, resolvePromocode } from "./resolve";

export interface CalculateRequest {
  locationId: string;
  lines: RequestedLine[];
  discountAmount: number | null;
  promocode: string | null;
  excludedBookingIds: string[];
}

/** The invoice an order with these lines and terms would get, without creating it. */
export async function calculateInvoice(scope: Scope, req: CalculateRequest): Promise<Invoice> {
  const refs = await loadOrderRefs(
    scope,
    refsFor(req.locationId, req.lines, {
      promocode: req.promocode,
      excludedBookingIds: req.excludedBookingIds,
    }),
  );
  const errors: FieldErrors = {};
  if (!refs.location) errors.location_uuid = ["Unknown location."];
  const lines = resolveLines(req.lines, refs, errors, null);
  const promo = resolvePromocode(req.promocode, refs, errors);
  const terms = orderTerms({ discountAmount: req.discountAmount, promocode: promo?.code ?? null });
  Object.assign(errors, termsErrors(lines, terms));
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return orderInvoice(lines, terms, NOTHING_PAID, promo);
}
