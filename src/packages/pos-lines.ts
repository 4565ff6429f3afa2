import { ApiError } from "../platform/errors";
import type { OfferedPackage, OrderPackages, PackageLines } from "../pos/package-lines";
import {
  issuedByOrders,
  orderSaleRead,
  templatesForSale,
  voidOrderPackages,
} from "./queries/order-sale";
import { MAX_PACKAGES_PER_ORDER } from "./rules/sale";
import { issuedOf, packagesSoldBy } from "./sell";

const alreadyUsed = () =>
  new ApiError(
    "package_already_used",
    "A package this order sold has been used or is held by a booking; the sale can no longer be refunded.",
  );

/**
 * How POS orders sell packages (installed into pos by the composition root):
 * a line may name a live template of the workspace in its currency; paying
 * at the till issues one package per unit (a membership needs the online
 * checkout's card); a refund voids them unless one was touched.
 */
export const posPackageLines: PackageLines = {
  maxUnits: MAX_PACKAGES_PER_ORDER,
  offered: (scope, ids) => {
    const r = templatesForSale(scope, ids);
    return {
      statements: r.statements,
      parse: (rows) => {
        const { templates, currency } = r.parse(rows);
        const out = new Map<string, OfferedPackage>();
        for (const t of templates.values())
          out.set(t.id, {
            name: t.name,
            price: t.price,
            refusal: !t.live
              ? "This package is not for sale (not live)."
              : t.currency !== currency
                ? `This package is priced in ${t.currency}; the order is in ${currency ?? "another currency"}.`
                : null,
          });
        return out;
      },
    };
  },
  ofOrder: (scope, orderId) => {
    const r = orderSaleRead(scope, orderId);
    return {
      statements: r.statements,
      parse: (rows): OrderPackages => {
        const sale = r.parse(rows);
        return {
          issued: sale.issued,
          sell: (order, lines, values, at) => {
            const { records, statements } = packagesSoldBy(
              scope,
              sale.templates,
              order,
              lines,
              values,
              at,
            );
            return { issued: issuedOf(records), statements };
          },
          voidAll: (at) => {
            if (sale.issued.length === 0) return [];
            if (sale.touched) throw alreadyUsed();
            return voidOrderPackages(scope, orderId, at);
          },
        };
      },
    };
  },
  issuedBy: issuedByOrders,
};
