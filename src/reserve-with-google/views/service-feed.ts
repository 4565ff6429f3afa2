import { z } from "@hono/zod-openapi";
import type { locations, services, workspaces } from "../../db/schema";
import { effectivePrice } from "../../catalogue/rules/service-terms";
import { int64Out, unset } from "../wire/json";
import { microsOf } from "../rules/feed-values";
import { FeedMetadataSchema, Int64String } from "./feed-metadata";

const TextSchema = z
  .object({
    value: z.string(),
    localized_value: z.array(z.object({ locale: z.string(), value: z.string() })),
  })
  .openapi("RwgFeedText", { description: "A text, and the same per locale (the workspace's)" });

export const ServiceSchema = z
  .object({
    merchant_id: z.string().openapi({ description: "The location's uuid" }),
    service_id: z.string().openapi({ description: "The service's uuid" }),
    localized_service_name: TextSchema,
    localized_description: TextSchema.optional(),
    price: z
      .object({
        price_micros: Int64String.openapi({
          description:
            "int64: the price a customer pays (the discounted one when set), in millionths",
        }),
        currency_code: z.string().openapi({ description: "ISO 4217" }),
      })
      .optional()
      .openapi({ description: "Left out when the service hides its price" }),
    rules: z.object({
      min_advance_booking: Int64String.openapi({
        description: "int64 seconds: the location's minimum notice",
      }),
      min_advance_online_canceling: Int64String.openapi({
        description: "int64 seconds: the location's cancellation offset (0: until the start)",
      }),
    }),
  })
  .openapi("RwgFeedService");
export type Service = z.infer<typeof ServiceSchema>;

export const ServiceFeedSchema = z
  .object({ metadata: FeedMetadataSchema, service: z.array(ServiceSchema) })
  .openapi("RwgServiceFeed", { description: "Google's ServiceFeed (proto3 JSON, proto names)" });

const text = (value: string, locale: string) => ({
  value,
  localized_value: [{ locale, value }],
});

export function serviceOf(
  workspace: typeof workspaces.$inferSelect,
  location: typeof locations.$inferSelect,
  service: typeof services.$inferSelect,
): Service {
  const description = service.description?.trim();
  return unset({
    merchant_id: location.id,
    service_id: service.id,
    localized_service_name: text(service.name, workspace.locale),
    localized_description: description ? text(description, workspace.locale) : undefined,
    price: service.isPriceHidden
      ? undefined
      : {
          price_micros: int64Out(microsOf(effectivePrice(service), workspace.currency)),
          currency_code: workspace.currency,
        },
    rules: {
      min_advance_booking: int64Out(location.minNotice * 60),
      min_advance_online_canceling: int64Out(location.cancellationOffset * 60),
    },
  });
}
