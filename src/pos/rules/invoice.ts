import { mulDivHalfUp } from "./round";
import { discountedLines } from "./shares";

/**
 * The one pricing function behind calculate, create and pay (and booking
 * orders), so a previewed total is always the total charged.
 *
 * Order of operations, all in minor units:
 *   1. line totals = unit price × quantity; base_amount = Σ line totals
 *      (base_price is the same at catalogue prices);
 *   2. manual discount: a fixed amount (capped at base_amount) or a percent of
 *      base_amount, rounded half-up;
 *   3. promocode discount on what is left: its percent (half-up) or amount, or
 *      the explicit amount the client sent, capped at what is left;
 *   4. subtotal = base_amount − discount − promocode discount;
 *   5. taxes are added on top per line: both reductions are spread over the
 *      lines in proportion to their totals (largest remainder, so the pieces
 *      add up exactly: `discountedLines`), then tax = discounted line × rate,
 *      half-up, summed per (name, rate). The discounted line is also what a
 *      voucher line's vouchers are worth (`voucherValues`);
 *   6. total = subtotal + taxes; amount_due = max(0, total − amount_paid), where
 *      amount_paid is what accounts, vouchers and (a booking's order) online payments took.
 *
 * Example: 2 × 1 000 (20 % tax) + 1 × 500 (untaxed), 10 % discount:
 *   base 2 500 → discount 250 → subtotal 2 250; the taxed line carries 200 of
 *   the 250, so its tax is 20 % of 1 800 = 360; total 2 610.
 */
export interface PricingLine {
  kind: "good" | "service" | "voucher" | "package";
  unitPrice: number;
  catalogPrice: number;
  quantity: number;
  tax: { name: string; rateBp: number } | null;
}

export interface PricingInput {
  lines: PricingLine[];
  discount: { mode: "fixed"; amount: number } | { mode: "percent"; percent: number } | null;
  promocode: { code: string; percent: number | null; amount: number | null } | null;
  promocodeDiscountAmount: number | null;
  /** What was paid: on an account, by vouchers and (booking orders) online through the provider. */
  paid: { account: number; voucher: number; online?: number };
}

export interface TaxLine {
  name: string;
  rate_bp: number;
  amount: number;
}

export interface Invoice {
  base_amount: number;
  /** Signed, as in the reference's sample: a discount is negative. */
  discount_amount: number;
  promocode: string | null;
  promocode_discount_amount: number;
  subtotal: number;
  taxes: TaxLine[];
  total: number;
  base_price: number;
  amount_due: number;
  voucher_paid_amount: number;
  /** Signed, as in the reference's sample: money received is negative. */
  account_paid_amount: number;
  amount_paid: number;
}

// `+ 0` turns -0 into 0, so no amount ever renders as "-0".
const negative = (amount: number) => -amount + 0;

function manualDiscount(base: number, discount: PricingInput["discount"]): number {
  if (!discount) return 0;
  if (discount.mode === "fixed") return Math.min(Math.max(discount.amount, 0), base);
  return Math.min(mulDivHalfUp(base, Math.min(Math.max(discount.percent, 0), 100), 100), base);
}

function promoDiscount(left: number, input: PricingInput): number {
  if (input.promocodeDiscountAmount !== null)
    return Math.min(Math.max(input.promocodeDiscountAmount, 0), left);
  const promo = input.promocode;
  if (!promo) return 0;
  if (promo.percent !== null)
    return Math.min(mulDivHalfUp(left, Math.min(Math.max(promo.percent, 0), 100), 100), left);
  return Math.min(Math.max(promo.amount ?? 0, 0), left);
}

/** The order's amounts before tax: line totals, both reductions and what is left of each line. */
function reduced(input: PricingInput) {
  const lineTotals = input.lines.map((l) => l.unitPrice * l.quantity);
  const base = lineTotals.reduce((a, b) => a + b, 0);
  const discount = manualDiscount(base, input.discount);
  const promo = promoDiscount(base - discount, input);
  return { base, discount, promo, nets: discountedLines(lineTotals, discount + promo) };
}

/** What each line costs after the order's discount and promocode, before tax (minor units). */
export const discountedLineAmounts = (input: PricingInput): number[] => reduced(input).nets;

export function priceInvoice(input: PricingInput): Invoice {
  const { base, discount, promo, nets } = reduced(input);
  const basePrice = input.lines.reduce((a, l) => a + l.catalogPrice * l.quantity, 0);
  const subtotal = base - discount - promo;

  const taxes = new Map<string, TaxLine>();
  input.lines.forEach((line, i) => {
    if (!line.tax) return;
    const net = nets[i] ?? 0;
    const key = `${line.tax.name}\u0000${line.tax.rateBp}`;
    const entry = taxes.get(key) ?? { name: line.tax.name, rate_bp: line.tax.rateBp, amount: 0 };
    entry.amount += mulDivHalfUp(net, line.tax.rateBp, 10_000);
    taxes.set(key, entry);
  });
  const taxList = [...taxes.values()];
  const total = subtotal + taxList.reduce((a, t) => a + t.amount, 0);
  const paid = input.paid.account + input.paid.voucher + (input.paid.online ?? 0);
  return {
    base_amount: base,
    discount_amount: negative(discount),
    promocode: input.promocode?.code ?? null,
    promocode_discount_amount: promo,
    subtotal,
    taxes: taxList,
    total,
    base_price: basePrice,
    amount_due: Math.max(0, total - paid),
    voucher_paid_amount: input.paid.voucher,
    account_paid_amount: negative(input.paid.account),
    amount_paid: paid,
  };
}

/** Bookings listed by the client do not count toward a promocode's uses (the reference). */
export function promocodeIsUsable(p: {
  maxUses: number | null;
  usedCount: number;
  usesByExcludedBookings: number;
}) {
  return p.maxUses === null || p.usedCount - p.usesByExcludedBookings < p.maxUses;
}
