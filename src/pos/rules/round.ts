/**
 * Integer maths for money: amounts are minor units and every division rounds
 * half-up (0.5 goes away from zero for the non-negative amounts used here).
 * BigInt keeps products like 10^12 × 10^4 exact.
 */
export function mulDivHalfUp(value: number, numerator: number, denominator: number): number {
  const product = BigInt(value) * BigInt(numerator);
  const d = BigInt(denominator);
  const q = product / d;
  const r = product % d;
  return Number(2n * r >= d ? q + 1n : q) + 0;
}

/**
 * Splits `total` over `weights` proportionally so the pieces sum exactly to
 * `total`: floors first, then the largest remainders (ties to the earlier
 * line) get one unit each.
 */
export function allocate(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0 || total === 0) return weights.map(() => 0);
  const T = BigInt(total);
  const S = BigInt(sum);
  const parts = weights.map((w) => {
    const p = T * BigInt(w);
    return { floor: p / S, rest: p % S };
  });
  let left = Number(T - parts.reduce((a, p) => a + p.floor, 0n));
  const order = parts
    .map((p, i) => ({ i, rest: p.rest }))
    .sort((a, b) => (a.rest === b.rest ? a.i - b.i : a.rest > b.rest ? -1 : 1));
  const out = parts.map((p) => Number(p.floor));
  for (const { i } of order) {
    if (left <= 0) break;
    out[i] = (out[i] ?? 0) + 1;
    left -= 1;
  }
  return out;
}
