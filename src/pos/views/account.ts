import { z } from "@hono/zod-openapi";
import type { accounts } from "../../db/schema";
import { ACCOUNT_TYPES, paymentMethodFor, requiresAction } from "../rules/accounts";
import { paginated } from "../../platform/pagination";

export const AccountSchema = z
  .object({
    uuid: z.string(),
    location_uuid: z.string(),
    name: z.string(),
    type: z.enum(ACCOUNT_TYPES),
    requires_action: z.boolean().openapi({
      description:
        "True when payments need an out-of-band step (QR, online); the POS cannot settle on it",
    }),
    payment_method: z.string().openapi({
      description: "The payment_method an order paid on this account gets",
      example: "cash_account",
    }),
  })
  .openapi("Account");

export const AccountList = paginated(AccountSchema, "AccountList");

export const renderAccount = (
  row: typeof accounts.$inferSelect,
): z.infer<typeof AccountSchema> => ({
  uuid: row.id,
  location_uuid: row.locationId,
  name: row.name,
  type: row.type,
  requires_action: requiresAction(row.type),
  payment_method: paymentMethodFor(row.type),
});
