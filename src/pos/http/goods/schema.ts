import { z } from "@hono/zod-openapi";
import type { categories, goods } from "../../../db/schema";
import { money, nonEmpty, optionalText, uuid } from "../../../platform/fields";
import { paginated } from "../../../platform/pagination";

export const UNITS = ["pcs", "ml", "l", "g", "kg", "cm", "m", "pack"] as const;
const MAX_LOCALES = 50;
const translatable = z
  .record(z.string().min(2).max(35), z.string().max(1000))
  .refine((v) => Object.keys(v).length <= MAX_LOCALES, `At most ${MAX_LOCALES} locales.`)
  .openapi({ maxProperties: MAX_LOCALES, description: `Keyed by locale, at most ${MAX_LOCALES}` });

export const CreateGoodBody = z
  .object({
    name: nonEmpty(),
    article: nonEmpty(64),
    is_payable: z.boolean(),
    unit: z.enum(UNITS),
    is_consumable: z.boolean(),
    price: money.optional(),
    consumable_unit: z.enum(UNITS).optional(),
    quantity_in_unit: z.number().int().min(1).max(1_000_000).optional(),
    description: optionalText().optional(),
    category_uuid: uuid("category_uuid").optional(),
    initial_stock: z
      .object({
        is_set: z.boolean(),
        location_uuid: uuid("location_uuid").optional(),
        unit_price: money.optional(),
        quantity: z.number().int().min(0).max(1_000_000_000).optional(),
        critical_stock: z.number().int().min(0).max(1_000_000_000).optional(),
      })
      .optional(),
    images: z.array(z.string().min(1).max(2048)).max(20, "At most 20 images.").optional(),
    live: z.boolean().optional(),
    live_in_widget: z.boolean().optional(),
    public_name_translatable: translatable.optional(),
    public_description_translatable: translatable.optional(),
  })
  .superRefine((b, ctx) => {
    const need = (path: (string | number)[], message: string) =>
      ctx.addIssue({ code: "custom", path, message });
    if (b.is_payable && b.price === undefined) need(["price"], "Required when is_payable is true.");
    if (b.is_consumable && b.consumable_unit === undefined)
      need(["consumable_unit"], "Required when is_consumable is true.");
    if (
      b.consumable_unit !== undefined &&
      b.consumable_unit !== b.unit &&
      b.quantity_in_unit === undefined
    ) {
      need(["quantity_in_unit"], "Required when unit differs from consumable_unit.");
    }
    const s = b.initial_stock;
    if (s?.is_set) {
      if (s.location_uuid === undefined)
        need(["initial_stock", "location_uuid"], "Required when is_set is true.");
      if (s.unit_price === undefined)
        need(["initial_stock", "unit_price"], "Required when is_set is true.");
      if (s.quantity === undefined)
        need(["initial_stock", "quantity"], "Required when is_set is true.");
    }
  })
  .openapi("CreateGood");

export const GoodSchema = z
  .object({
    uuid: z.string(),
    name: z.string(),
    article: z.string(),
    category: z
      .object({ uuid: z.string(), name: z.string(), class: z.string().nullable() })
      .nullable(),
    description: z.string().nullable(),
    is_payable: z.boolean(),
    price: z.number().int().nullable(),
    unit: z.string(),
    is_consumable: z.boolean(),
    consumable_unit: z.string().nullable(),
    quantity_in_unit: z.number().int().nullable(),
    stock: z.number().int(),
    can_be_set_up_as_consumable: z.boolean(),
    images: z.array(z.string()),
    image: z.string().nullable(),
    live: z.boolean(),
    live_in_widget: z.boolean(),
    public_name_translatable: z.record(z.string(), z.string()),
    public_description_translatable: z.record(z.string(), z.string()),
  })
  .openapi("Good");

export const GoodList = paginated(GoodSchema, "GoodList");

export interface GoodRecord {
  good: typeof goods.$inferSelect;
  category: typeof categories.$inferSelect | null;
  stock: number;
}

export function renderGood(v: GoodRecord): z.infer<typeof GoodSchema> {
  const g = v.good;
  return {
    uuid: g.id,
    name: g.name,
    article: g.article,
    category: v.category
      ? { uuid: v.category.id, name: v.category.name, class: v.category.class }
      : null,
    description: g.description,
    is_payable: g.isPayable,
    price: g.price,
    unit: g.unit,
    is_consumable: g.isConsumable,
    consumable_unit: g.consumableUnit,
    quantity_in_unit: g.quantityInUnit,
    stock: v.stock,
    // A good sold by the piece can later be used up in services too; one already consumable is set up.
    can_be_set_up_as_consumable: !g.isConsumable,
    images: g.images,
    image: g.images[0] ?? null,
    live: g.live,
    live_in_widget: g.liveInWidget,
    public_name_translatable: g.publicNameTranslatable,
    public_description_translatable: g.publicDescriptionTranslatable,
  };
}
