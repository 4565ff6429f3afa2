import { insertRows } from "../../db/bounded";
import type { OrderLineRow } from "../queries/pos-orders";
import type { VoucherRow } from "../queries/vouchers";
import { vouchers } from "../../db/schema";
import type { Scope } from "../../db/scope";
import { CODE_SYMBOLS, codeFromBytes } from "../rules";

/** A fresh code from the platform's CSPRNG. */
export const newVoucherCode = () =>
  codeFromBytes(crypto.getRandomValues(new Uint8Array(CODE_SYMBOLS)));

/**
 * The vouchers paying an order issues: one per unit of each voucher line,
 * worth what was paid for that unit (`values`, from `voucherValuesOf`: the
 * line's price less its share of the order's discount and promocode, split
 * over its units), and the statements that insert them (chunked under D1's
 * parameter limit, in the paying batch). A unit paid nothing is issued at 0:
 * every unit sold gets its code, and no voucher holds money nobody paid.
 */
export function issueVouchers(
  scope: Scope,
  orderId: string,
  lines: readonly OrderLineRow[],
  values: readonly (readonly number[])[],
  at: number,
) {
  const rows: VoucherRow[] = lines.flatMap((l, i) =>
    l.kind !== "voucher"
      ? []
      : Array.from({ length: l.quantity }, (_, unit) => {
          const worth = values[i]?.[unit] ?? 0;
          return {
            id: crypto.randomUUID(),
            workspaceId: scope.workspaceId,
            code: newVoucherCode(),
            templateId: l.refId,
            orderId,
            orderLineId: l.id,
            initialAmount: worth,
            balance: worth,
            status: "active" as const,
            createdAt: at,
          };
        }),
  );
  return { rows, statements: insertRows(scope.db, vouchers, rows) };
}
