import { z } from "@hono/zod-openapi";
import type { voucherTemplates } from "../../../../db/schema";
import { money, nonEmpty } from "../../../../platform/fields";

export const CreateVoucherTemplateBody = z
  .object({
    name: nonEmpty(),
    price: money.openapi({ description: "Integer minor units of the workspace currency" }),
  })
  .openapi("CreateVoucherTemplate");

export const VoucherTemplateSchema = z
  .object({ uuid: z.string(), name: z.string(), price: z.number().int() })
  .openapi("VoucherTemplate");

export const renderVoucherTemplate = (
  row: typeof voucherTemplates.$inferSelect,
): z.infer<typeof VoucherTemplateSchema> => ({ uuid: row.id, name: row.name, price: row.price });
