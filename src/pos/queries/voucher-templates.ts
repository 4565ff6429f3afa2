import type { Database } from "../../db/client";
import { voucherTemplates } from "../../db/schema";

export const insertVoucherTemplate = (db: Database, row: typeof voucherTemplates.$inferInsert) =>
  db.insert(voucherTemplates).values(row).returning();
