import { z } from "@hono/zod-openapi";
import { currency, money, nonEmpty, uuid } from "../../../platform/fields";
import { paginated } from "../../../platform/pagination";
import { PackageSchema } from "../../views/package";
import type { FieldNames } from "../../../http/request-fields";
import type { CreditSubject } from "../../templates/credits";

export const MAX_CREDITS = 10;
export const MAX_SERVICES_PER_CREDIT = 50;
export const MAX_CREDIT_COUNT = 1000;
export const MAX_VALID_DAYS = 1095;

const credit = z
  .strictObject({
    service_uuids: z
      .array(uuid("service_uuid"))
      .min(1, "At least one service.")
      .max(MAX_SERVICES_PER_CREDIT, `At most ${MAX_SERVICES_PER_CREDIT} services.`)
      .superRefine((ids, ctx) => {
        ids.forEach((id, i) => {
          if (ids.indexOf(id) !== i)
            ctx.addIssue({ code: "custom", path: [i], message: "Listed twice." });
        });
      })
      .openapi({
        description: `Services of the workspace this credit pays for (1..${MAX_SERVICES_PER_CREDIT}, each once)`,
      }),
    count: z
      .number()
      .int("Must be a whole number.")
      .min(1, "Must be at least 1.")
      .max(MAX_CREDIT_COUNT, `May not be greater than ${MAX_CREDIT_COUNT}.`)
      .openapi({ description: `Bookings it pays for, 1..${MAX_CREDIT_COUNT}` }),
  })
  .openapi("PackageCredit");

const credits = z
  .array(credit)
  .min(1, "At least one credit.")
  .max(MAX_CREDITS, `At most ${MAX_CREDITS} credits.`)
  .openapi({ description: `1..${MAX_CREDITS} credit lines` });

const validDays = z
  .number()
  .int("Must be a whole number.")
  .min(1, "Must be at least 1.")
  .max(MAX_VALID_DAYS, `May not be greater than ${MAX_VALID_DAYS}.`)
  .openapi({
    description: `Days its credits stay usable from the sale (a membership: from each period's start), 1..${MAX_VALID_DAYS}`,
  });

const renews = z.strictObject({ every: z.literal("month") }).openapi({
  description:
    "Makes it a membership: a fresh set of credits each calendar month, the saved card charged `price` each time",
});

export const CreatePackageBody = z
  .strictObject({
    name: nonEmpty(),
    price: money,
    currency: currency.optional().openapi({ description: "Default: the workspace's currency" }),
    credits,
    valid_days: validDays,
    renews: renews.optional(),
  })
  .openapi("CreatePackage");

export const UpdatePackageBody = z
  .strictObject({
    name: nonEmpty().optional(),
    price: money.optional(),
    live: z.boolean().optional().openapi({ description: "False stops selling it" }),
    valid_days: validDays.optional(),
    credits: credits.optional(),
    renews: renews.nullable().optional().openapi({ description: "null: no longer a membership" }),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    message: "Send at least one field to change.",
  })
  .openapi("UpdatePackage", {
    description:
      "Applies to future sales only: what was sold keeps the name, price, credits, validity and renewal it was sold with. The currency cannot change.",
  });

export const PackagePath = z.object({ package_uuid: uuid("package_uuid") });

export const PackageList = paginated(PackageSchema, "PackageList");

/** The body's credits in the use-case's words. */
export const creditsOf = (body: z.infer<typeof credits>) =>
  body.map((c) => ({ serviceIds: c.service_uuids, count: c.count }));

/** Where a template's credits name a service: `credits.i.service_uuids.j`. */
export const CREDIT_FIELDS: FieldNames<CreditSubject> = {
  "credit service": (a) => `credits.${a.credit}.service_uuids.${a.service}`,
};
