import { z } from "@hono/zod-openapi";
import { uuid } from "../../../platform/fields";
import { paginated } from "../../../platform/pagination";
import type { PackageRecord } from "../../queries/customer-packages";
import { periodBounds } from "../../rules";
import { CustomerPackageSchema, renderCustomerPackage } from "../../views/customer-package";

export const CustomerPackagePath = z.object({
  customer_package_uuid: uuid("customer_package_uuid"),
});

export const CustomerPackageList = paginated(CustomerPackageSchema, "CustomerPackageList");

/** A customer package as the API shows it at `now`. */
export const renderRecord = ({ pkg, credits }: PackageRecord, now: number) =>
  renderCustomerPackage(pkg, credits, now, (k) => periodBounds(pkg, k));
