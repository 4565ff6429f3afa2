import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";
import type { Statement } from "./statement";

export type Database = DrizzleD1Database<typeof schema>;

export const createDb = (d1: D1Database): Database => drizzle(d1, { schema });

/** Runs statements built up in a list as one batch (one transaction); nothing to run, nothing sent. */
export function runBatch(db: Database, statements: Statement[]): Promise<unknown[]> {
  const [first, ...rest] = statements;
  return first ? db.batch([first, ...rest]) : Promise.resolve([]);
}
