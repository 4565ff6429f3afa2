import { insertRows } from "../db/bounded";
import type { OrderLineRow } from "../db/queries/pos-orders";
import type { VoucherRow } from "../db/queries/vouchers";
import { vouchers } from "../db/schema";
import type { Scope } from "../db/scope";
import { CODE_SYMBOLS, codeFromBytes } from "../domain/pricing";

/** A fresh code from the platform's CSPRNG. */
export const newVoucherCode = () =>
  codeFromBytes(crypto.getRandomValues(new Uint8Array(CODE_SYMBOLS)));

/**
 * The vouchers paying an order issues: one per unit of each voucher line,
 * worth the unit price the till charged for it, and the statements that
 * insert them (chunked under D1's parameter limit, in the paying batch).
 */
export function issueVouchers(
  scope: Scope,
  orderId: string,
  lines: readonly OrderLineRow[],
  at: number,
) {
  const rows: VoucherRow[] = lines
    .filter((l) => l.kind === "voucher")
    .flatMap((l) =>
      Array.from({ length: l.quantity }, () => ({
        id: crypto.randomUUID(),
        workspaceId: scope.workspaceId,
        code: newVoucherCode(),
        templateId: l.refId,
        orderId,
        orderLineId: l.id,
        initialAmount: l.unitPrice,
        balance: l.unitPrice,
        status: "active" as const,
        createdAt: at,
      })),
    );
  return { rows, statements: insertRows(scope.db, vouchers, rows) };
}
