import { z } from "@hono/zod-openapi";
import type { customers } from "../../db/schema";

export const CustomerSchema = z
  .object({
    uuid: z.string(),
    first_name: z.string(),
    last_name: z.string().nullable(),
    middle_name: z.string().nullable(),
    phone: z.string().openapi({ description: "E.164", example: "+493012345678" }),
    email: z.string().nullable(),
  })
  .openapi("Customer");

export type Customer = z.infer<typeof CustomerSchema>;

export const renderCustomer = (row: typeof customers.$inferSelect): Customer => ({
  uuid: row.id,
  first_name: row.firstName,
  last_name: row.lastName,
  middle_name: row.middleName,
  phone: row.phone,
  email: row.email,
});
