import { loadOrderRefs } from "../db/queries/order-refs";
import type { Scope } from "../db/scope";
import {
  MAX_VOUCHERS_PER_ORDER,
  type Invoice,
  NOTHING_PAID,
  orderInvoice,
  orderTerms,
  termsErrors,
} from "../domain/pricing";
import { type FieldErrors, validationError } from "../lib/errors";
import { codesToRead, splitTender, tenderVouchers, type VoucherOffer } from "../vouchers/tender";
import {
  type RequestedLine,
  refsFor,
  resolveLines,
  resolvePromocode,
  tooManyVouchers,
  voucherUnits,
} from "./resolve";

export interface CalculateRequest {
  locationId: string;
  lines: RequestedLine[];
  discountAmount: number | null;
  promocode: string | null;
  excludedBookingIds: string[];
  /** Vouchers the customer would pay with: the invoice shows what they cover, as pay would split it. */
  payWith: VoucherOffer[];
}

export interface Calculated {
  invoice: Invoice;
  /** What each offered voucher would cover. */
  voucherParts: { code: string; amount: number }[];
}

/** The invoice an order with these lines and terms would get, without creating it. */
export async function calculateInvoice(scope: Scope, req: CalculateRequest): Promise<Calculated> {
  // The vouchers are read in the catalogue's batch: one round trip.
  const refs = await loadOrderRefs(
    scope,
    refsFor(req.locationId, req.lines, {
      promocode: req.promocode,
      excludedBookingIds: req.excludedBookingIds,
      voucherCodes: codesToRead(req.payWith),
    }),
  );
  const errors: FieldErrors = {};
  if (!refs.location) errors.location_uuid = ["Unknown location."];
  const lines = resolveLines(req.lines, refs, errors, null);
  const promo = resolvePromocode(req.promocode, refs, errors);
  const terms = orderTerms({ discountAmount: req.discountAmount, promocode: promo?.code ?? null });
  Object.assign(errors, termsErrors(lines, terms));
  const units = voucherUnits(req.lines);
  if (units > MAX_VOUCHERS_PER_ORDER) errors.vouchers = [tooManyVouchers];
  if (Object.keys(errors).length > 0) throw validationError(errors);
  const unpaid = orderInvoice(lines, terms, NOTHING_PAID, promo);
  const tender = tenderVouchers(req.payWith, refs.vouchers, "payment_vouchers");
  if (tender.offers.length === 0) return { invoice: unpaid, voucherParts: [] };
  // Only the voucher part: which account pays the rest is for pay to say.
  const split = splitTender(unpaid.amount_due, tender);
  return {
    invoice: orderInvoice(lines, terms, { account: 0, voucher: split.voucher }, promo),
    voucherParts: split.parts,
  };
}
