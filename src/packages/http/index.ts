import type { Router } from "../../http/openapi";
import { registerCustomerPackages } from "./customer-packages";
import { registerPackageTemplates } from "./packages";

/** Package templates (memberships included) and what customers bought. */
export function registerPackages(router: Router) {
  registerPackageTemplates(router);
  registerCustomerPackages(router);
}
