import { type SQL, sql } from "drizzle-orm";

/**
 * A location's day of an instant, in SQL: days since 1970-01-01 on its wall
 * clock, from its `location_offsets` (the triggers of 0038 spell the same).
 * D1 binds a JS number as REAL, which would make the division fractional:
 * an instant given as a number is cast to an integer first.
 */
export const localDaySql = (locationId: string | SQL, instant: number | SQL): SQL => {
  const at = typeof instant === "number" ? sql`cast(${instant} as integer)` : instant;
  return sql`((${at}) + coalesce((select o.offset_ms from location_offsets o where o.location_id = ${locationId} and o.from_ms <= (${at}) order by o.from_ms desc limit 1), 0)) / 86400000`;
};
