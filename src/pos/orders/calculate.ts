import { loadOrderRefs } from "../queries/order-refs";
import type { Scope } from "../../db/scope";
import {
  MAX_VOUCHERS_PER_ORDER,
  type Invoice,
  NOTHING_PAID,
  orderInvoice,
  orderTerms,
  termsRefusals,
} from "../rules";
import { type Problem, problem } from "../../platform/rules/problems";
import { InvalidError } from "../../platform/errors";
import {
  codesToRead,
  splitTender,
  tenderOffers,
  type VoucherOffer,
  type VoucherSubject,
} from "../vouchers/tender";
import {
  type OrderSubject,
  type RequestedLine,
  refsFor,
  resolveLines,
  resolvePromocode,
  packageUnits,
  tooManyPackages,
  tooManyVouchers,
  voucherUnits,
} from "./resolve";
import { packageLines } from "../package-lines";

export interface CalculateRequest {
  locationId: string;
  lines: RequestedLine[];
  discountAmount: number | null;
  promocode: string | null;
  excludedBookingIds: string[];
  /** Vouchers the customer would pay with: the invoice shows what they cover, as pay would split it. */
  payWith: VoucherOffer[];
}

/** What a calculation can be wrong about: an order's things, and the vouchers offered to pay. */
export type CalculateSubject = OrderSubject | VoucherSubject;

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
  const problems: Problem<OrderSubject>[] = [];
  if (!refs.location) problems.push(problem({ is: "location" }, "Unknown location."));
  const lines = resolveLines(req.lines, refs, problems, null);
  const promo = resolvePromocode(req.promocode, refs, problems);
  // Unlike create, the terms are refused in the same 422 as the lines (on the lines that resolved).
  const terms = orderTerms({ discountAmount: req.discountAmount, promocode: promo?.code ?? null });
  problems.push(...termsRefusals(lines, terms));
  const units = voucherUnits(req.lines);
  if (units > MAX_VOUCHERS_PER_ORDER) problems.push(problem({ is: "vouchers" }, tooManyVouchers));
  const { maxUnits } = packageLines();
  if (packageUnits(req.lines) > maxUnits)
    problems.push(problem({ is: "packages" }, tooManyPackages(maxUnits)));
  if (problems.length > 0) throw new InvalidError(problems);
  const unpaid = orderInvoice(lines, terms, NOTHING_PAID, promo);
  const tender = tenderOffers(req.payWith, refs.vouchers);
  if (tender.offers.length === 0) return { invoice: unpaid, voucherParts: [] };
  // Only the voucher part: which account pays the rest is for pay to say.
  const split = splitTender(unpaid.amount_due, tender);
  return {
    invoice: orderInvoice(lines, terms, { account: 0, voucher: split.voucher }, promo),
    voucherParts: split.parts,
  };
}
