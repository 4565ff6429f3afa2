/**
 * Display strings for minor-unit amounts, from Intl so each currency gets its
 * own symbol and number of decimals (JPY has none, KWD three).
 */
const formatters = new Map<string, Intl.NumberFormat>();

function formatter(currency: string, locale: string): Intl.NumberFormat {
  const key = `${locale}|${currency}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { style: "currency", currency });
    formatters.set(key, f);
  }
  return f;
}

export function minorUnitDigits(currency: string): number {
  return formatter(currency, "en").resolvedOptions().maximumFractionDigits ?? 2;
}

export function formatMoney(minor: number, currency: string, locale = "en"): string {
  const f = formatter(currency, locale);
  const digits = f.resolvedOptions().maximumFractionDigits ?? 2;
  return f.format(minor / 10 ** digits);
}

/**
 * Caps that keep every amount exact. Amounts travel as JS numbers (JSON, D1
 * rows), which are exact integers only up to 2^53 − 1 = 9 007 199 254 740 991.
 * The largest order is MAX_LINES_PER_KIND lines of each of the three kinds at
 * MAX_UNIT_PRICE × MAX_QUANTITY, so its base amount is at most
 * 3 × 100 × 10^9 × 10^4 = 3 × 10^15; taxes of at most 100 % (MAX_TAX_RATE_BP)
 * double that to 6 × 10^15, still below 2^53. Intermediate products (percent
 * and tax shares) are computed with BigInt (`mulDivHalfUp`), so only these
 * results need to stay safe. See docs/decisions.md, "Request limits".
 */
export const MAX_UNIT_PRICE = 1_000_000_000;
export const MAX_QUANTITY = 10_000;
export const MAX_LINES_PER_KIND = 100;
export const MAX_TAX_RATE_BP = 10_000;
/** The largest base amount an order can reach, and the cap of whole-order amounts (discounts, payments). */
export const MAX_ORDER_AMOUNT = 3 * MAX_LINES_PER_KIND * MAX_UNIT_PRICE * MAX_QUANTITY;
/** The largest total: the base amount plus taxes at MAX_TAX_RATE_BP on all of it. */
export const MAX_ORDER_TOTAL = MAX_ORDER_AMOUNT + (MAX_ORDER_AMOUNT * MAX_TAX_RATE_BP) / 10_000;

/**
 * The most one order may be paid in all (a booking order takes a payment per
 * completed booking, each up to MAX_ORDER_AMOUNT): the largest total any order
 * can have. A payment that would pass it is refused, so a cart's completes
 * can never add up past 2^53.
 */
export const MAX_ORDER_PAID = MAX_ORDER_TOTAL;

/**
 * An account's balance is the sum of every payment it ever took or gave back,
 * unbounded by any per-request cap; the payment or refund that would take it
 * outside ±(2^53 − 1) is refused instead (and a trigger in D1 refuses the
 * write, for two payments racing past it).
 */
export const MAX_ACCOUNT_BALANCE = Number.MAX_SAFE_INTEGER;

/** Whether an order already paid `paid` may take `more` (exact: BigInt, whatever the inputs). */
export const orderPaymentFits = (paid: number, more: number): boolean =>
  BigInt(paid) + BigInt(more) <= BigInt(MAX_ORDER_PAID);

/** Whether an account at `balance` may move by `change` (negative: money going out). */
export function accountChangeFits(balance: number, change: number): boolean {
  const after = BigInt(balance) + BigInt(change);
  const max = BigInt(MAX_ACCOUNT_BALANCE);
  return after <= max && after >= -max;
}
