import { type SQL, sql } from "drizzle-orm";
import { customerPackageCredits } from "../../db/schema";

/**
 * Credits as an event shows them (`shown`, in order), each one's `used` and
 * `reserved` as the batch finds them when this statement runs (after the
 * batch's earlier writes), for an event's payload patched in SQL. One JSON
 * parameter whatever their number: a membership keeps the live credits of
 * every period whose credits outlast the month, and two bound per credit
 * passed D1's 100 (a booking paid by it could not complete).
 */
export const creditsWhenWritten = (credits: readonly { id: string; shown: object }[]): SQL => {
  const now = (count: "used" | "reserved") =>
    sql`(select ${customerPackageCredits[count]} from ${customerPackageCredits} where ${customerPackageCredits.id} = json_extract(j.value, '$.id'))`;
  return sql`json((select json_group_array(json_set(json_extract(j.value, '$.shown'), '$.used', ${now("used")}, '$.reserved', ${now("reserved")})) from json_each(${JSON.stringify(credits)}) j))`;
};
