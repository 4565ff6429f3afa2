import { z } from "@hono/zod-openapi";
import type { locations } from "../../db/schema";
import { paginated } from "../../platform/pagination";
import { addressOf } from "../../platform/rules/address";
import { phoneForDisplay } from "../../platform/rules/phone";

export const AddressSchema = z
  .object({
    line1: z.string(),
    line2: z.string().nullable().openapi({ description: "null when the address has none" }),
    city: z.string(),
    postal_code: z.string(),
    country: z.string().openapi({ description: "ISO 3166-1 alpha-2, upper-case", example: "DE" }),
  })
  .openapi("Address");

export const LocationSchema = z
  .object({
    uuid: z.string(),
    name: z.string(),
    timezone: z.string(),
    slot_step: z.number().int().openapi({ description: "Minutes between slot starts" }),
    min_notice: z.number().int().openapi({ description: "Minutes of notice a booking needs" }),
    cancellation_offset: z.number().int().openapi({
      description:
        "Minutes before a booking's start after which a publishable key may no longer cancel it; 0: no limit",
    }),
    change_offset: z.number().int().openapi({
      description:
        "Minutes before a booking's start after which a publishable key may no longer reschedule it; 0: no limit",
    }),
    policy_text: z.string().nullable(),
    cancellation_text: z.string().nullable(),
    change_text: z.string().nullable(),
    address: AddressSchema.nullable().openapi({
      description: "The location's postal address; null when none was set",
    }),
    phone: z
      .string()
      .nullable()
      .openapi({ description: "The location's phone number (E.164); null when none was set" }),
    phone_display: z.string().nullable().openapi({
      description:
        'The same number as people write it, international form with its country\'s grouping ("+49 30 12345678"); null with no phone',
      example: "+49 30 12345678",
    }),
    latitude: z.number().nullable().openapi({
      description: "WGS 84 latitude in degrees; null when the location has no coordinates",
    }),
    longitude: z.number().nullable().openapi({
      description: "WGS 84 longitude in degrees; null when the location has no coordinates",
    }),
  })
  .openapi("Location");

export const LocationList = paginated(LocationSchema, "LocationList");

export const renderLocation = (
  row: typeof locations.$inferSelect,
): z.infer<typeof LocationSchema> => ({
  uuid: row.id,
  name: row.name,
  timezone: row.timezone,
  slot_step: row.slotStep,
  min_notice: row.minNotice,
  cancellation_offset: row.cancellationOffset,
  change_offset: row.changeOffset,
  policy_text: row.policyText,
  cancellation_text: row.cancellationText,
  change_text: row.changeText,
  address: addressOf(row),
  phone: row.phone,
  phone_display: row.phone === null ? null : phoneForDisplay(row.phone),
  latitude: row.latitude,
  longitude: row.longitude,
});
