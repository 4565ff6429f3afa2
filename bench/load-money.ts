/**
 * Money, computed independently for `npm run load` (docs/decisions.md "Point of sale"): line
 * totals → manual discount (fixed, or percent of the base, half-up) → promocode on what is left
 * → taxes per line on the discounted line amounts (reductions spread in proportion to line
 * totals, largest remainder) → total. A re-implementation, not the product's pricing function.
 */

/** round(a × b / c) with halves going up, exact for non-negative integers. */
const halfUp = (a: number, b: number, c: number) =>
  Number((2n * BigInt(a) * BigInt(b) + BigInt(c)) / (2n * BigInt(c)));

/** `amount` split over `weights` proportionally; the pieces add up to `amount`. */
function spread(amount: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0) return weights.map(() => 0);
  const shares = weights.map((w, i) => ({
    i,
    floor: Math.floor(Number((BigInt(amount) * BigInt(w)) / BigInt(sum))),
    rest: Number((BigInt(amount) * BigInt(w)) % BigInt(sum)),
  }));
  let left = amount - shares.reduce((a, s) => a + s.floor, 0);
  for (const s of [...shares].sort((a, b) => b.rest - a.rest || a.i - b.i))
    if (left-- > 0) s.floor += 1;
  return shares.map((s) => s.floor);
}

export interface Line {
  unit: number;
  qty: number;
  taxBp: number | null;
}
export interface Terms {
  mode: "fixed" | "percent" | null;
  amount: number;
  percent: number | null;
  promocode: string | null;
}
/** The promocodes this script creates, by lower-case code. */
export const PROMOCODES: Record<string, { percent: number | null; amount: number | null }> = {
  load15: { percent: 15, amount: null },
  load7: { percent: null, amount: 700 },
};

export function expectedTotals(lines: Line[], terms: Terms) {
  const lineTotals = lines.map((l) => l.unit * l.qty);
  const base = lineTotals.reduce((a, b) => a + b, 0);
  const discount =
    terms.mode === "percent"
      ? Math.min(halfUp(base, terms.percent ?? 0, 100), base)
      : Math.min(terms.amount, base);
  const left = base - discount;
  const rule = terms.promocode ? PROMOCODES[terms.promocode.toLowerCase()] : undefined;
  const promo = !rule
    ? 0
    : rule.percent !== null
      ? Math.min(halfUp(left, rule.percent, 100), left)
      : Math.min(rule.amount ?? 0, left);
  const cuts = spread(discount + promo, lineTotals);
  const tax = lines.reduce(
    (sum, l, i) =>
      sum + (l.taxBp === null ? 0 : halfUp((lineTotals[i] ?? 0) - (cuts[i] ?? 0), l.taxBp, 10_000)),
    0,
  );
  return { promo, total: left - promo + tax };
}
