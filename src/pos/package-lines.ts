import type { inSubquery } from "../db/bounded";
import { nothing, type Read } from "../db/reads";
import type { Scope } from "../db/scope";
import type { Statement } from "../db/statement";
import type { orderLines, orders } from "../db/schema";

type OrderRow = typeof orders.$inferSelect;
type OrderLineRow = typeof orderLines.$inferSelect;
/** A subquery selecting order ids (as `inSubquery` takes it). */
type OrderIds = Parameters<typeof inSubquery>[1];

/**
 * Package lines (`packages: [{ package_uuid, price, quantity }]`) are sold
 * through POS orders, but what a package is, how it is issued and when it may
 * be voided belong to src/packages, a module above pos: pos may not import it.
 * So pos declares here the little it asks of package lines, and the
 * composition root (src/app/app.ts) installs src/packages' answer
 * (`sellPackagesWith`). Until then no package line resolves.
 */
export interface PackageLines {
  /** The most packages one order may issue (units over its package lines). */
  maxUnits: number;
  /** The templates a new order's package lines name, read in its references' batch. */
  offered(scope: Scope, templateIds: readonly string[]): Read<Map<string, OfferedPackage>>;
  /** An order's packages, read with the order: what its lines sell and what it issued. */
  ofOrder(scope: Scope, orderId: string): Read<OrderPackages>;
  /** What the orders a subquery selects issued (a page of orders), for rendering. */
  issuedBy(scope: Scope, orderIds: OrderIds): Read<IssuedPackage[]>;
}

/** A template a package line names, as a till may sell it. */
export interface OfferedPackage {
  name: string;
  price: number;
  /** Why it cannot be sold (not live, another currency), or null. */
  refusal: string | null;
}

/** A customer package an order's line issued. */
export interface IssuedPackage {
  id: string;
  orderId: string;
  orderLineId: string;
}

/** An order's packages: those it issued, and the writes that issue or void them. */
export interface OrderPackages {
  issued: IssuedPackage[];
  /**
   * Statements for the batch that pays the order at the till: one package per
   * unit of each package line, worth `values` (per line, per unit, as vouchers
   * are). Throws (409) when a line cannot be paid at a till (a membership).
   */
  sell(
    order: OrderRow,
    lines: readonly OrderLineRow[],
    values: readonly (readonly number[])[],
    at: number,
  ): { issued: IssuedPackage[]; statements: Statement[] };
  /**
   * Statements for the refund's batch voiding what the order issued, led by a
   * guard that none of it is touched when the batch runs. Throws (409) when
   * one already is.
   */
  voidAll(at: number): Statement[];
}

const NONE: PackageLines = {
  maxUnits: 0,
  offered: () => nothing(new Map()),
  ofOrder: () =>
    nothing({
      issued: [],
      sell: (_order, lines) => {
        if (lines.some((l) => l.kind === "package"))
          throw new Error("Package lines are not installed (sellPackagesWith).");
        return { issued: [], statements: [] };
      },
      voidAll: () => [],
    }),
  issuedBy: () => nothing([]),
};

let installed: PackageLines = NONE;

/** Installs how package lines are sold (the composition root calls it once). */
export const sellPackagesWith = (lines: PackageLines) => {
  installed = lines;
};

export const packageLines = (): PackageLines => installed;
