import { z } from "@hono/zod-openapi";
import type { promocodes } from "../../../../db/schema";
import { orderAmount } from "../../../../platform/fields";

export const CreatePromocodeBody = z
  .object({
    code: z
      .string()
      .trim()
      .regex(
        /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/,
        "Must be 1 to 64 letters (A-Z), digits, dashes or underscores.",
      )
      .openapi({ description: "Unique in the workspace regardless of case", example: "SUMMER10" }),
    discount_percent: z
      .number()
      .int("Must be a whole percentage.")
      .min(1, "Must be at least 1.")
      .max(100, "May not be greater than 100.")
      .optional(),
    discount_amount: orderAmount.min(1, "Must be at least 1.").optional(),
    max_uses: z
      .number()
      .int("Must be an integer.")
      .min(1, "Must be at least 1.")
      .max(1_000_000_000, "May not be greater than 1000000000.")
      .optional(),
  })
  .superRefine((body, ctx) => {
    const both = body.discount_percent !== undefined && body.discount_amount !== undefined;
    const neither = body.discount_percent === undefined && body.discount_amount === undefined;
    if (!both && !neither) return;
    const message = both
      ? "Send either discount_percent or discount_amount, not both."
      : "Send discount_percent or discount_amount.";
    for (const path of ["discount_percent", "discount_amount"]) {
      ctx.addIssue({ code: "custom", path: [path], message });
    }
  })
  .openapi("CreatePromocode", {
    description: "Exactly one of discount_percent and discount_amount",
  });

export const PromocodeSchema = z
  .object({
    uuid: z.string(),
    code: z.string().openapi({ description: "As it was created; matched regardless of case" }),
    discount_percent: z.number().int().nullable(),
    discount_amount: z.number().int().nullable(),
    max_uses: z.number().int().nullable().openapi({ description: "null means unlimited" }),
  })
  .openapi("Promocode");

export const renderPromocode = (
  row: typeof promocodes.$inferSelect,
): z.infer<typeof PromocodeSchema> => ({
  uuid: row.id,
  code: row.code,
  discount_percent: row.discountPercent,
  discount_amount: row.discountAmount,
  max_uses: row.maxUses,
});
