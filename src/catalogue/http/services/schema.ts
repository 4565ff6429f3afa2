import { z } from "@hono/zod-openapi";
import type { ServiceRecord } from "../../queries/services";
import { bufferOf, effectivePrice } from "../../rules/service-terms";
import { NO_POLICY } from "../../rules/payment-policy";
import { PaymentPolicySchema } from "../../views/payment-policy";
import { MAX_CAPACITY } from "../../../platform/rules/capacity";
import { durationObject } from "../../../platform/rules/duration";
import { formatMoney } from "../../../platform/rules/money";
import { money, nonEmpty, optionalText, uuid } from "../../../platform/fields";
import { paginated } from "../../../platform/pagination";
import { DurationSchema } from "../../views/duration";

/**
 * The colour key a service shows when none was configured: the reference types
 * `class` as a string, so it is never null. Stored as null, so a service keeps
 * following this default (see docs/decisions.md).
 */
export const DEFAULT_SERVICE_CLASS = "default";

const POLICY_DESCRIPTION =
  'What a customer booking online (a publishable key) pays when booking: `mode` none, card_on_file (a saved card, charged only for fees), deposit (`deposit`: a percent of the price or an amount) or prepay (the whole price), plus an optional late-cancel fee (`late_cancel`: within `window_minutes`, 0..10080, before the start) and `no_show_fee`. Each money object is exactly one of `percent` (1..100, of the price the customer pays, rounded half up) and `amount` (minor units, at least 1). Default `{ "mode": "none" }`. Bookings made with a secret key (staff) never pay online.';

/** Seats of one session: above 1 the service is a group service (docs/decisions.md, "Group sessions"). */
const capacity = z
  .number()
  .int("Must be a whole number.")
  .min(1, "Must be at least 1.")
  .max(MAX_CAPACITY, `May not be greater than ${MAX_CAPACITY}.`)
  .openapi({
    description: `Seats per session, 1 to ${MAX_CAPACITY} (default 1). Above 1 the service is a group service: bookings of it at one start with one staffer share that staffer's time (and one unit of each resource it needs) as one session, up to capacity seats.`,
  });

export const CreateServiceBody = z
  .object({
    name: nonEmpty(),
    duration: z.number().int().min(5, "At least 5 minutes.").max(1425, "At most 1425 minutes."),
    price: money,
    description: optionalText().optional(),
    category_uuid: uuid("category_uuid").optional(),
    is_pause: z.boolean().optional(),
    pause: z.number().int().min(0).max(180, "At most 180 minutes.").optional(),
    price_discount: money.optional(),
    price_type: z.literal("base", { message: "Only base is supported." }).optional(),
    live: z.boolean().optional(),
    live_in_widget: z.boolean().optional(),
    is_duration_hidden: z.boolean().optional(),
    is_price_hidden: z.boolean().optional(),
    is_top: z.boolean().optional(),
    is_auto_allocated: z.boolean().optional(),
    starting_at: z.boolean().optional(),
    class: z
      .string()
      .max(64)
      .optional()
      .openapi({ description: `Colour key; "${DEFAULT_SERVICE_CLASS}" when not sent` }),
    location_uuids: z
      .array(uuid("location_uuid"))
      .max(200, "At most 200 locations.")
      .optional()
      .openapi({ description: "At most 200; omitted means every location of the workspace" }),
    staffer_uuids: z
      .array(uuid("staffer_uuid"))
      .max(1000, "At most 1000 staffers.")
      .optional()
      .openapi({ description: "At most 1000; omitted means every bookable staffer there" }),
    images: z.array(z.string().min(1).max(2048)).max(20, "At most 20 images.").optional(),
    capacity: capacity.optional(),
    resource_uuids: z
      .array(uuid("resource_uuid"))
      .max(10, "At most 10 resources.")
      .optional()
      .openapi({
        description:
          "Resources the service needs, one unit of each for its whole duration and buffer (at most 10, each once)",
      }),
    payment_policy: PaymentPolicySchema.optional().openapi({ description: POLICY_DESCRIPTION }),
  })
  .superRefine((body, ctx) => {
    body.resource_uuids?.forEach((id, i) => {
      if (body.resource_uuids?.indexOf(id) !== i) {
        ctx.addIssue({ code: "custom", path: ["resource_uuids", i], message: "Listed twice." });
      }
    });
    if (body.price_discount !== undefined && body.price_discount >= body.price) {
      ctx.addIssue({
        code: "custom",
        path: ["price_discount"],
        message: "Must be less than price.",
      });
    }
  })
  .openapi("CreateService");

export const UpdateServiceBody = z
  .object({
    capacity: capacity.optional(),
    payment_policy: PaymentPolicySchema.optional().openapi({
      description: `Replaces the service's payment policy as a whole (send \`{ "mode": "none" }\` to remove it); bookings and reservations already made keep the terms they were made with. ${POLICY_DESCRIPTION}`,
    }),
  })
  .refine((body) => body.capacity !== undefined || body.payment_policy !== undefined, {
    message: "Send capacity, payment_policy or both.",
  })
  .openapi("UpdateService", {
    description: "The fields of a service that can change; at least one of them.",
  });

export const ServiceSchema = z
  .object({
    uuid: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    images: z.array(z.string()),
    currency: z.string(),
    price: z.number().int(),
    price_formatted: z.string(),
    price_type: z.literal("base"),
    discount: z.number().int(),
    discount_formatted: z.string(),
    duration: DurationSchema,
    is_extra_time: z.boolean(),
    extra_time: DurationSchema,
    is_price_hidden: z.boolean(),
    is_duration_hidden: z.boolean(),
    is_top: z.boolean(),
    starting_at: z.boolean(),
    live: z.boolean(),
    live_in_widget: z.boolean(),
    class: z.string().openapi({
      description: `Configured colour key; "${DEFAULT_SERVICE_CLASS}" when none was configured`,
      example: DEFAULT_SERVICE_CLASS,
    }),
    category: z
      .object({
        uuid: z.string(),
        name: z.string(),
        order: z.number().int(),
        cover: z.string().nullable(),
      })
      .nullable(),
    locations: z.array(z.object({ uuid: z.string(), name: z.string() })),
    staffers: z.array(z.object({ uuid: z.string() })),
    resource_uuids: z.array(z.string()).openapi({
      description: "Resources the service needs (one unit of each), sorted; [] when none",
    }),
    capacity: z.number().int().openapi({
      description:
        "Seats per session: 1 for a one-to-one service; above 1 a group service (see GET /sessions)",
    }),
    // A description set on the registered schema itself would rewrite the PaymentPolicy
    // component; inside a union it stays this field's.
    payment_policy: z.union([PaymentPolicySchema]).openapi({
      description: `Always present; \`{ "mode": "none" }\` when the service takes no money online. ${POLICY_DESCRIPTION}`,
    }),
  })
  .openapi("Service");

export const ServiceList = paginated(ServiceSchema, "ServiceList");
export const ServicePath = z.object({ service_uuid: uuid("service_uuid") });

/** `discount` is the price a client pays: the discounted price when one is set, else the price. */
export function renderService(
  v: ServiceRecord,
  currency: string,
  locale: string,
): z.infer<typeof ServiceSchema> {
  const s = v.service;
  const discount = effectivePrice(s);
  return {
    uuid: s.id,
    name: s.name,
    description: s.description,
    images: s.images,
    currency,
    price: s.price,
    price_formatted: formatMoney(s.price, currency, locale),
    price_type: "base",
    discount,
    discount_formatted: formatMoney(discount, currency, locale),
    duration: durationObject(s.duration),
    is_extra_time: s.isPause,
    extra_time: durationObject(bufferOf(s)),
    is_price_hidden: s.isPriceHidden,
    is_duration_hidden: s.isDurationHidden,
    is_top: s.isTop,
    starting_at: s.startingAt,
    live: s.live,
    live_in_widget: s.liveInWidget,
    class: s.class ?? DEFAULT_SERVICE_CLASS,
    category: v.category
      ? {
          uuid: v.category.id,
          name: v.category.name,
          order: v.category.order,
          cover: v.category.cover,
        }
      : null,
    locations: [...v.locations].sort((a, b) => (a.uuid < b.uuid ? -1 : 1)),
    staffers: [...v.stafferIds].sort().map((uuid) => ({ uuid })),
    resource_uuids: [...v.resourceIds].sort(),
    capacity: s.capacity,
    payment_policy: s.paymentPolicy ?? NO_POLICY,
  };
}
