import { releasePromocodeUse } from "../queries/order-change";
import type { Scope } from "../../db/scope";
import { ApiError } from "../../platform/errors";
import type { PosOrder } from "../views/pos-order-schema";
import { changeOrder } from "./change";

const notOpen = () => new ApiError("order_not_open", "Only an open order can be cancelled.");

/**
 * Cancels an open POS order: nothing was paid, so nothing moves but the
 * promocode use it held, which goes back to the code. Compare-and-set on the
 * order's version, like pay: a pay and a cancel at once end as one of them.
 */
export function cancelPosOrder(scope: Scope, orderId: string): Promise<PosOrder> {
  return changeOrder(scope, orderId, {
    name: "cancel",
    gaveUp: notOpen,
    plan: ({ order }, { now }) => {
      if (order.status !== "open") throw notOpen();
      return {
        event: "order-cancelled",
        from: "open",
        order: { status: "cancelled", closedAt: now },
        moves: [releasePromocodeUse(scope, order.id)],
      };
    },
  });
}
