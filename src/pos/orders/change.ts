import { attempt } from "../../db/attempts";
import { isGuardFailure } from "../../db/constraints";
import { orderStill, type OrderPatch, updateOrder } from "../queries/order-change";
import { type EventType, eventStatement } from "../../webhooks/queries/outbox";
import { type LoadedPosOrder, posOrderRead } from "../queries/pos-orders";
import type { VoucherRow } from "../queries/vouchers";
import type { IssuedPackage } from "../package-lines";
import { nothing, type ReadsOf, readTogether } from "../../db/reads";
import type { Scope } from "../../db/scope";
import type { Statement } from "../../db/statement";
import { notFound } from "../../platform/errors";
import { rendezvous } from "../../platform/failpoints";
import { renderOrder } from "../views/pos-order";
import type { PosOrder } from "../views/pos-order-schema";

/** A change to a POS order, as its plan describes it; the runner writes it. */
export interface OrderChange {
  event: EventType;
  /** The status the order was read in: the write commits only while it is still in it. */
  from: LoadedPosOrder["order"]["status"];
  /** Columns of the order that change (its version moves by itself). */
  order: OrderPatch;
  /** Vouchers the change issues (paying for voucher lines). */
  issues?: { rows: VoucherRow[]; statements: Statement[] };
  /** Customer packages the change issues (paying for package lines). */
  sells?: { issued: IssuedPackage[]; statements: Statement[] };
  /** What else moves with the order: the account, vouchers spent or given back, stock, a promocode use. */
  moves: Statement[];
}

export interface OrderPlanning<R> {
  now: number;
  reads: R;
  /** What the attempt that lost to another write of the order read (on the one retry). */
  previous: R | undefined;
}

export type OrderOperation<R = undefined> = ReadsOf<R> & {
  /** `pay`, `cancel`, `refund`: names the race probes and rendezvous of this change. */
  name: string;
  plan: (loaded: LoadedPosOrder, planning: OrderPlanning<R>) => OrderChange;
  /** Answered when the change loses to another write of the order a second time. */
  gaveUp: () => Error;
};

/**
 * Runs one change to a POS order: one read, one plan, one batch led by the
 * order's guard (`orderStill`); on a lost guard, the same runner's one retry
 * on fresh state, where the plan usually finds the reason to refuse.
 */
export function changeOrder<R = undefined>(
  scope: Scope,
  orderId: string,
  operation: OrderOperation<R>,
): Promise<PosOrder> {
  return attempt({
    name: `orders.${operation.name}`,
    read: async () => {
      const read = await readTogether(scope.db, {
        loaded: posOrderRead(scope, orderId),
        reads: operation.reads?.(scope) ?? nothing(undefined as R),
      });
      if (!read.loaded) throw notFound("Order");
      return { loaded: read.loaded, reads: read.reads };
    },
    attempt: async ({ loaded, reads }, previous) => {
      const now = Date.now();
      const change = operation.plan(loaded, { now, reads, previous: previous?.reads });
      const rendered = renderOrder({
        ...loaded,
        order: { ...loaded.order, ...change.order, version: loaded.order.version + 1 },
        issued: [...loaded.issued, ...(change.issues?.rows ?? [])],
        packages: [...loaded.packages, ...(change.sells?.issued ?? [])],
      });
      await rendezvous(`orders.${operation.name}.before_write`);
      // Any two money writes to orders (pay and cancel, two tills on one voucher) can be made to meet here.
      await rendezvous("orders.money.before_write");
      await scope.db.batch([
        orderStill(scope, loaded.order, change.from),
        updateOrder(scope, loaded.order.id, change.order),
        ...(change.issues?.statements ?? []),
        ...(change.sells?.statements ?? []),
        ...change.moves,
        eventStatement(scope.db, scope.workspaceId, change.event, rendered),
      ]);
      return rendered;
    },
    lost: isGuardFailure,
    gaveUp: operation.gaveUp,
  });
}
