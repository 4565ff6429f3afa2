import { type Invoice, type PricingInput, priceInvoice } from "./invoice";

/** A line as an order stores it: the price the till charges and the catalogue's own. */
export interface OrderLine {
  kind: "good" | "service" | "voucher";
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
  const frozen = terms.promocodeDiscountAmount;
  return priceInvoice({
    lines: lines.map(pricingLine),
    discount: discountOf(terms),
    promocode:
      rule ??
      (terms.promocode === null ? null : { code: terms.promocode, percent: null, amount: null }),
    promocodeDiscountAmount: frozen,
    paid,
  });
}

export const baseAmount = (lines: OrderLine[]) =>
  lines.reduce((sum, l) => sum + l.unitPrice * l.quantity, 0);

/**
 * Terms that cannot be honoured as asked are refused rather than quietly
 * capped: a fixed discount or an explicit promocode amount larger than what
 * is left to discount would print a bill the seller did not mean.
 */
export function termsErrors(lines: OrderLine[], terms: OrderTerms): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const base = baseAmount(lines);
  if (terms.discountMode !== "percent" && terms.discountAmount > base)
    errors.discount_amount = ["May not exceed the order's base amount."];
  if (terms.promocodeDiscountAmount !== null) {
    const plain = orderInvoice(
      lines,
      { ...terms, promocode: null, promocodeDiscountAmount: null },
      NOTHING_PAID,
    );
    // discount_amount is signed (negative), so adding it leaves what is still to pay.
    if (terms.promocodeDiscountAmount > plain.base_amount + plain.discount_amount)
      errors.promocode_discount_amount = ["May not exceed the amount left after the discount."];
  }
  return errors;
}

export const NOTHING_PAID = { account: 0, voucher: 0 } as const;
