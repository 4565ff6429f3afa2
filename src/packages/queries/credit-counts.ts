import { type SQL, sql } from "drizzle-orm";
import { customerPackageCredits } from "../../db/schema";

/**
 * A credit's count as the batch finds it when this statement runs (after the
 * batch's earlier writes), for an event's payload patched in SQL.
 */
export const countWhenWritten = (creditId: string, count: "used" | "reserved"): SQL =>
  sql`(select ${customerPackageCredits[count]} from ${customerPackageCredits} where ${customerPackageCredits.id} = ${creditId})`;
