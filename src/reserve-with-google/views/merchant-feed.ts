import { z } from "@hono/zod-openapi";
import type { locations, workspaces } from "../../db/schema";
import { unset } from "../wire/json";
import { FeedMetadataSchema } from "./feed-metadata";

/**
 * Google's category of every merchant: the place type of a hair or beauty
 * salon, the businesses this product books (Google's own appointments
 * samples use it). Google matches the listing by name, address and phone; the
 * category only has to be the right vertical.
 */
export const MERCHANT_CATEGORY = "beauty_salon";

const PostalAddressSchema = z
  .object({
    street_address: z.string(),
    locality: z.string(),
    region: z.string().optional(),
    postal_code: z.string(),
    country: z.string().openapi({ description: "ISO 3166-1 alpha-2" }),
  })
  .openapi("RwgFeedPostalAddress");

export const MerchantSchema = z
  .object({
    merchant_id: z.string().openapi({ description: "The location's uuid" }),
    name: z.string().openapi({
      description: "The workspace's brand name, else the location's name (as the booking pages)",
    }),
    telephone: z.string().optional().openapi({ description: "The location's phone, E.164" }),
    category: z.string().openapi({ example: MERCHANT_CATEGORY }),
    geo: z
      .object({
        latitude: z.number().optional(),
        longitude: z.number().optional(),
        address: PostalAddressSchema.optional(),
      })
      .openapi({
        description:
          "The location's coordinates and address, each when set (a location with neither has an empty geo and cannot be matched)",
      }),
  })
  .openapi("RwgFeedMerchant");
export type Merchant = z.infer<typeof MerchantSchema>;

export const MerchantFeedSchema = z
  .object({ metadata: FeedMetadataSchema, merchant: z.array(MerchantSchema) })
  .openapi("RwgMerchantFeed", { description: "Google's MerchantFeed (proto3 JSON, proto names)" });

export function merchantOf(
  workspace: typeof workspaces.$inferSelect,
  location: typeof locations.$inferSelect,
): Merchant {
  const street = [location.addressLine1, location.addressLine2].filter(Boolean).join(", ");
  const hasAddress =
    location.addressLine1 !== null &&
    location.addressCity !== null &&
    location.addressPostalCode !== null &&
    location.addressCountry !== null;
  const hasCoordinates = location.latitude !== null && location.longitude !== null;
  return unset({
    merchant_id: location.id,
    name: workspace.brandName ?? location.name,
    telephone: location.phone ?? undefined,
    category: MERCHANT_CATEGORY,
    geo: unset({
      latitude: hasCoordinates ? (location.latitude ?? undefined) : undefined,
      longitude: hasCoordinates ? (location.longitude ?? undefined) : undefined,
      address: hasAddress
        ? {
            street_address: street,
            locality: location.addressCity ?? "",
            postal_code: location.addressPostalCode ?? "",
            country: location.addressCountry ?? "",
          }
        : undefined,
    }),
  });
}
