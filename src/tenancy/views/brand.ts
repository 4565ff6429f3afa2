import { z } from "@hono/zod-openapi";

export const BrandSchema = z
  .object({
    name: z.string().openapi({ description: "The name customers see on the booking pages" }),
    logo_url: z.string().nullable().openapi({ description: "An https: URL of the logo" }),
    accent_color: z.string().nullable().openapi({
      description:
        "`#rrggbb` (lower-case), at least 4.5:1 against white by the WCAG 2 contrast ratio",
      example: "#1a5fb4",
    }),
  })
  .openapi("Brand");

export type Brand = z.infer<typeof BrandSchema>;

/** The brand columns of a workspace (all null without a brand). */
export interface BrandColumns {
  brandName: string | null;
  brandLogoUrl: string | null;
  brandAccentColor: string | null;
}

/** A workspace's brand, or null when it has none (no name). */
export const renderBrand = (row: BrandColumns): Brand | null =>
  row.brandName === null
    ? null
    : { name: row.brandName, logo_url: row.brandLogoUrl, accent_color: row.brandAccentColor };
