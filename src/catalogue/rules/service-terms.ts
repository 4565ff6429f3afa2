/** The price a client pays for a service: the discounted price when one is set. */
export const effectivePrice = (s: { price: number; priceDiscount: number | null }) =>
  s.priceDiscount ?? s.price;

/** Minutes a service keeps its staffer busy after it ends (its pause, when switched on). */
export const bufferOf = (s: { isPause: boolean; pause: number }) => (s.isPause ? s.pause : 0);
