import type { Database } from "../../db/client";
import { reservations } from "../../db/schema";

export const insertReservation = (db: Database, row: typeof reservations.$inferInsert) =>
  db.insert(reservations).values(row);
