import { z } from "@hono/zod-openapi";
import type { packages } from "../../db/schema";
import { toIso } from "../../platform/clock";

export const PackageSchema = z
  .object({
    uuid: z.string(),
    name: z.string(),
    price: z.number().int(),
    currency: z.string(),
    credits: z.array(z.object({ service_uuids: z.array(z.string()), count: z.number().int() })),
    valid_days: z.number().int(),
    renews: z.object({ every: z.literal("month") }).nullable(),
    live: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Package");

export type Package = z.infer<typeof PackageSchema>;

export const renderPackage = (row: typeof packages.$inferSelect): Package => ({
  uuid: row.id,
  name: row.name,
  price: row.price,
  currency: row.currency,
  credits: row.credits.map((c) => ({ service_uuids: c.service_ids, count: c.count })),
  valid_days: row.validDays,
  renews: row.renews ? { every: row.renews } : null,
  live: row.live,
  created_at: toIso(row.createdAt),
  updated_at: toIso(row.updatedAt),
});
