import { z } from "@hono/zod-openapi";
import { BrandSchema, type BrandColumns, renderBrand } from "./brand";

export const PublicWorkspaceSchema = z
  .object({
    name: z.string(),
    locale: z.string().openapi({ description: "The workspace's language (BCP 47)" }),
    currency: z.string().openapi({ description: "ISO 4217 code of every amount" }),
    brand: BrandSchema.nullable().openapi({
      description:
        "What the booking pages show of the salon; null: none (show the location's name)",
    }),
  })
  .openapi("PublicWorkspace");

export const renderPublicWorkspace = (
  row: BrandColumns & { name: string; locale: string; currency: string },
): z.infer<typeof PublicWorkspaceSchema> => ({
  name: row.name,
  locale: row.locale,
  currency: row.currency,
  brand: renderBrand(row),
});
