import type { Database } from "../../db/client";
import { categories } from "../../db/schema";

export const insertCategory = (db: Database, row: typeof categories.$inferInsert) =>
  db.insert(categories).values(row);
