import { discountedLineAmounts, type Invoice, type PricingInput, priceInvoice } from "./invoice";
import { unitShares } from "./shares";
import { type Problem, problem } from "../../platform/rules/problems";

/** A line as an order stores it: the price the till charges and the catalogue's own. */
export interface OrderLine {
  kind: "good" | "service" | "voucher" | "package";
  unitPrice: number;
  catalogPrice: number;
  quantity: number;
  taxName: string | null;
  taxRateBp: number | null;
}

/**
 * What the seller asked for besides the lines. The promocode's discount is
 * frozen into `promocodeDiscountAmount` when the order is created, so a code
 * edited later never changes an order already rung up.
 */
export interface OrderTerms {
  discountMode: "fixed" | "percent" | null;
  discountAmount: number;
  discountPercent: number | null;
  promocode: string | null;
  promocodeDiscountAmount: number | null;
}

/**
 * Terms as a till asks for them: a `discount_amount` without a mode is a fixed
 * discount; anything not asked for is absent.
 */
export function orderTerms(asked: {
  discountMode?: OrderTerms["discountMode"];
  discountAmount: number | null;
  discountPercent?: number | null;
  promocode: string | null;
  promocodeDiscountAmount?: number | null;
}): OrderTerms {
  return {
    discountMode: asked.discountMode ?? (asked.discountAmount !== null ? "fixed" : null),
    discountAmount: asked.discountAmount ?? 0,
    discountPercent: asked.discountPercent ?? null,
    promocode: asked.promocode,
    promocodeDiscountAmount: asked.promocodeDiscountAmount ?? null,
  };
}

/** A workspace promocode as the pricing needs it. */
export interface PromocodeRule {
  code: string;
  percent: number | null;
  amount: number | null;
}

export const pricingLine = (l: OrderLine) => ({
  kind: l.kind,
  unitPrice: l.unitPrice,
  catalogPrice: l.catalogPrice,
  quantity: l.quantity,
  tax: l.taxRateBp === null ? null : { name: l.taxName ?? "Tax", rateBp: l.taxRateBp },
});

function discountOf(terms: OrderTerms): PricingInput["discount"] {
  if (terms.discountMode === "percent")
    return { mode: "percent", percent: terms.discountPercent ?? 0 };
  if (terms.discountAmount > 0) return { mode: "fixed", amount: terms.discountAmount };
  return null;
}

/** An order's lines and terms as the one pricing function takes them. */
function pricingInput(
  lines: readonly OrderLine[],
  terms: OrderTerms,
  paid: { account: number; voucher: number },
  rule: PromocodeRule | null,
): PricingInput {
  return {
    lines: lines.map(pricingLine),
    discount: discountOf(terms),
    promocode:
      rule ??
      (terms.promocode === null ? null : { code: terms.promocode, percent: null, amount: null }),
    promocodeDiscountAmount: terms.promocodeDiscountAmount,
    paid,
  };
}

/**
 * The invoice of an order: calculate, create, render and pay all come through
 * here with the same lines and terms, so they cannot disagree. `rule` is the
 * live promocode, used only until its discount is frozen on the order.
 */
export function orderInvoice(
  lines: OrderLine[],
  terms: OrderTerms,
  paid: { account: number; voucher: number },
  rule: PromocodeRule | null = null,
): Invoice {
  return priceInvoice(pricingInput(lines, terms, paid, rule));
}

/**
 * What each voucher an order issues is worth: what the customer paid for it.
 * A voucher line's share of the order's discount and promocode comes off its
 * total (`discountedLines`, the same split the taxes use), and what is left
 * is split over its units (`unitShares`). One list per line, in line order,
 * one value per unit; a package line's units are valued alike (what each
 * package was sold for); other kinds get an empty list. At 100 % off every
 * value is 0; the sum of all values never exceeds what the order charged.
 */
export function voucherValues(
  lines: readonly OrderLine[],
  terms: OrderTerms,
  rule: PromocodeRule | null = null,
): number[][] {
  const paid = lineNets(lines, terms, rule);
  return lines.map((l, i) =>
    l.kind === "voucher" || l.kind === "package" ? unitShares(paid[i] ?? 0, l.quantity) : [],
  );
}

/**
 * What each line costs after the order's discount and promocode, before tax:
 * the split the invoice's taxes and the vouchers' values use, so the lines
 * add up to the invoice's subtotal exactly.
 */
export const lineNets = (
  lines: readonly OrderLine[],
  terms: OrderTerms,
  rule: PromocodeRule | null = null,
): number[] => discountedLineAmounts(pricingInput(lines, terms, NOTHING_PAID, rule));

export const baseAmount = (lines: OrderLine[]) =>
  lines.reduce((sum, l) => sum + l.unitPrice * l.quantity, 0);

/** What an order's terms can be wrong about: its discount, the promocode's amount. */
export type TermsSubject = { is: "discount" } | { is: "promocode discount" };

/**
 * Terms that cannot be honoured as asked are refused rather than quietly
 * capped: a fixed discount or an explicit promocode amount larger than what
 * is left to discount would print a bill the seller did not mean.
 */
export function termsRefusals(lines: OrderLine[], terms: OrderTerms): Problem<TermsSubject>[] {
  const problems: Problem<TermsSubject>[] = [];
  const base = baseAmount(lines);
  if (terms.discountMode !== "percent" && terms.discountAmount > base)
    problems.push(problem({ is: "discount" }, "May not exceed the order's base amount."));
  if (terms.promocodeDiscountAmount !== null) {
    const plain = orderInvoice(
      lines,
      { ...terms, promocode: null, promocodeDiscountAmount: null },
      NOTHING_PAID,
    );
    // discount_amount is signed (negative), so adding it leaves what is still to pay.
    if (terms.promocodeDiscountAmount > plain.base_amount + plain.discount_amount)
      problems.push(
        problem({ is: "promocode discount" }, "May not exceed the amount left after the discount."),
      );
  }
  return problems;
}

export const NOTHING_PAID = { account: 0, voucher: 0 } as const;
