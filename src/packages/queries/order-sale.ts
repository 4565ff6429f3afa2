import { eq, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { idIn, inSubquery } from "../../db/bounded";
import { guard } from "../../db/guards";
import {
  customerPackageCredits,
  customerPackages,
  orderLines,
  packages,
  workspaces,
} from "../../db/schema";
import { read } from "../../db/reads";
import { type Scope, whereByKey, whereIn } from "../../db/scope";
import type { Statement } from "../../db/statement";

export type TemplateRow = typeof packages.$inferSelect;

/** The workspace's templates with these ids, and the workspace's currency (an order's). */
export const templatesForSale = (scope: Scope, ids: readonly string[]) =>
  read(
    [
      scope.db
        .select()
        .from(packages)
        .where(whereByKey(scope, packages, idIn(packages.id, ids))),
      scope.db
        .select({ currency: workspaces.currency })
        .from(workspaces)
        .where(eq(workspaces.id, scope.workspaceId)),
    ],
    ([rows, ws]) => ({
      templates: new Map(rows.map((t) => [t.id, t])),
      currency: ws[0]?.currency ?? null,
    }),
  );

/** The package lines' ids of an order, as a subquery. */
const packageLineRefs = (scope: Scope, orderId: string) =>
  scope.db
    .select({ id: orderLines.refId })
    .from(orderLines)
    .where(
      whereIn(scope, orderLines, eq(orderLines.orderId, orderId), eq(orderLines.kind, "package")),
    );

/** The packages an order issued. */
const issuedByOrder = (scope: Scope, orderId: string) =>
  scope.db
    .select({ id: customerPackages.id })
    .from(customerPackages)
    .where(whereIn(scope, customerPackages, eq(customerPackages.orderId, orderId)));

/** A credit of one of them was used or is held by a booking. */
const anyTouched = (scope: Scope, orderId: string) =>
  sql`exists (select 1 from ${customerPackageCredits} where ${inSubquery(
    customerPackageCredits.customerPackageId,
    issuedByOrder(scope, orderId),
  )} and (${customerPackageCredits.used} > 0 or ${customerPackageCredits.reserved} > 0))`;

/** The packages `where` picks, in the order their lines issued them (rowid: insertion order). */
const issuedWhere = (scope: Scope, where: SQL) =>
  scope.db
    .select({
      id: customerPackages.id,
      orderId: customerPackages.orderId,
      orderLineId: customerPackages.orderLineId,
    })
    .from(customerPackages)
    .where(whereIn(scope, customerPackages, where))
    .orderBy(sql`rowid`);

/**
 * What an order sells and issued as packages, read with the order: the
 * templates its package lines name, the packages it issued (in issue order)
 * and whether any of them has been touched.
 */
export const orderSaleRead = (scope: Scope, orderId: string) =>
  read(
    [
      scope.db
        .select()
        .from(packages)
        .where(whereIn(scope, packages, inSubquery(packages.id, packageLineRefs(scope, orderId)))),
      issuedWhere(scope, eq(customerPackages.orderId, orderId)),
      scope.db
        .select({ touched: sql<number>`${anyTouched(scope, orderId)}` })
        .from(workspaces)
        .where(eq(workspaces.id, scope.workspaceId)),
    ],
    ([templates, issued, touched]) => ({
      templates: new Map(templates.map((t) => [t.id, t])),
      issued,
      touched: Boolean(touched[0]?.touched),
    }),
  );

/** What the orders a subquery selects issued, for a page of orders. */
export const issuedByOrders = (scope: Scope, orderIds: SQLWrapper) =>
  read([issuedWhere(scope, inSubquery(customerPackages.orderId, orderIds))], ([rows]) => rows);

/**
 * Voids what an order issued, in the refund's batch: a guard that no credit
 * of it is used or held *when the batch runs* (a booking taking a credit at
 * the same moment commits before it or fails on the package's status after
 * it), then the packages' status, their renewal stopped.
 */
export const voidOrderPackages = (scope: Scope, orderId: string, at: number): Statement[] => [
  guard(scope, sql`not ${anyTouched(scope, orderId)}`),
  scope.db
    .update(customerPackages)
    .set({
      status: "void",
      renewing: false,
      nextChargeAt: null,
      updatedAt: at,
      version: sql`${customerPackages.version} + 1`,
    })
    .where(
      whereIn(
        scope,
        customerPackages,
        eq(customerPackages.orderId, orderId),
        eq(customerPackages.status, "active"),
      ),
    ),
];
