import { bookingSaleLines, posSaleLines } from "../pos/rules";
import type { SaleLinesOf } from "../reports/rebuild/rebuild-reports";

/**
 * An order's sale as the batches that pay it count it: a booking order's
 * booked services (its cart's), a POS order's lines, priced by the pos rules.
 * Reports cannot import pos: the rebuild route and the zone change's rebuild
 * hand it this.
 */
export const saleLinesOf: SaleLinesOf = (order, lines, services) =>
  order.kind === "booking" ? bookingSaleLines(services) : posSaleLines({ order, lines });
