import { z } from "@hono/zod-openapi";
import { CustomerPackageSchema } from "./customer-package";

/** The `package-credit-used` event's data: the package as the use left it, and what used it. */
export const PackageCreditUsedSchema = z
  .object({
    booking_uuid: z.string(),
    booking_service_uuid: z.string(),
    customer_package: CustomerPackageSchema,
  })
  .openapi("PackageCreditUsed");

export type PackageCreditUsed = z.infer<typeof PackageCreditUsedSchema>;
