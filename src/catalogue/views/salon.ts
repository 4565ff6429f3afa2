import { z } from "@hono/zod-openapi";
import type { BrandColumns } from "../../tenancy/views/brand";
import { type AddressColumns, addressLine, addressOf } from "../../platform/rules/address";
import { AddressSchema } from "./location";
import { phoneForDisplay } from "../../platform/rules/phone";

export const SalonSchema = z
  .object({
    name: z.string().openapi({
      description: "The name to show: the workspace's brand name, else the location's name",
    }),
    location_name: z.string(),
    address: AddressSchema.nullable().openapi({ description: "The location's; null: none set" }),
    address_line: z.string().nullable().openapi({
      description:
        'The address on one line ("line1, line2, postal_code city, country"), the country named in the answer\'s `locale`; null without an address',
    }),
    phone: z.string().nullable().openapi({ description: "The location's phone (E.164)" }),
    phone_display: z.string().nullable().openapi({
      description: 'The phone as people write it ("+49 30 12345678"); link with `phone`',
    }),
    logo_url: z.string().nullable().openapi({ description: "The brand's logo (https:)" }),
    accent_color: z.string().nullable().openapi({
      description: "The brand's `#rrggbb`, readable on white (WCAG 2 contrast ≥ 4.5:1)",
    }),
  })
  .openapi("Salon", {
    description:
      "Who the customer deals with, as the booking pages show it: the workspace's brand and the location's address and phone",
  });

export type Salon = z.infer<typeof SalonSchema>;

/** The salon of a page about `location`, its address line written in `locale`. */
export function renderSalon(
  brand: BrandColumns,
  location: AddressColumns & { name: string; phone: string | null },
  locale: string,
): Salon {
  const address = addressOf(location);
  return {
    name: brand.brandName ?? location.name,
    location_name: location.name,
    address,
    address_line: address ? addressLine(address, locale) : null,
    phone: location.phone,
    phone_display: location.phone === null ? null : phoneForDisplay(location.phone),
    logo_url: brand.brandName === null ? null : brand.brandLogoUrl,
    accent_color: brand.brandName === null ? null : brand.brandAccentColor,
  };
}
