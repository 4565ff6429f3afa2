import { allocate } from "./round";

/**
 * How an order's reductions (its manual discount and its promocode together)
 * fall on its lines: in proportion to the line totals, in minor units, by
 * largest remainder (`allocate`: floors first, then one unit each to the
 * largest remainders, ties to the earlier line), so the shares add up to the
 * reduction exactly, none is negative and none is more than its line. What
 * is left of each line is what the customer paid for it before tax: the
 * amount taxes are computed on, and what a voucher line's vouchers are worth.
 */
export function discountedLines(lineTotals: readonly number[], reduction: number): number[] {
  const shares = allocate(reduction, [...lineTotals]);
  return lineTotals.map((total, i) => total - (shares[i] ?? 0));
}

/**
 * A line's paid amount over its units, the same way: equal parts, the
 * remainder one minor unit each to the earliest units (3 units for 100 are
 * 34, 33, 33). The parts add up to the amount exactly.
 */
export function unitShares(amount: number, quantity: number): number[] {
  return allocate(amount, new Array<number>(quantity).fill(1));
}
