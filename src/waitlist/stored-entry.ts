import { z } from "zod";
import { parseJsonColumn } from "../db/json-column";

// The JSON columns of `waitlist_entries`, as join.ts writes them and the matcher and the
// entry's view read them back.

/** `services`: the services wanted, in order, each with the staffer asked for (null: anyone). */
export const StoredServicesSchema = z.array(
  z.object({ service_uuid: z.string(), staffer_uuid: z.string().nullish() }),
);

/** `times`: local "HH:MM" windows a visit must lie within (the column is null for any time). */
export const StoredTimesSchema = z.array(z.object({ start: z.string(), end: z.string() }));

/** `passed`: offers the entry let lapse or declined, as instants; never offered again. */
export const StoredPassedSchema = z.array(z.object({ start: z.number(), end: z.number() }));

export type StoredService = z.infer<typeof StoredServicesSchema>[number];

/** The services an entry stored, in order. */
export const entryServices = (row: { id: string; services: string }): StoredService[] =>
  parseJsonColumn(StoredServicesSchema, row.services, {
    column: "waitlist_entries.services",
    id: row.id,
  });

export const entryTimes = (row: { id: string; times: string | null }) =>
  row.times === null
    ? null
    : parseJsonColumn(StoredTimesSchema, row.times, {
        column: "waitlist_entries.times",
        id: row.id,
      });

export const entryPassed = (row: { id: string; passed: string }) =>
  parseJsonColumn(StoredPassedSchema, row.passed, {
    column: "waitlist_entries.passed",
    id: row.id,
  });
