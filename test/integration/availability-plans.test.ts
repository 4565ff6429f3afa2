import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { type AvailabilityQuery, availabilityReads } from "../../src/calendar/queries/availability";
import { bookingRefs } from "../../src/bookings/queries/booking-refs";
import { at, createSalon, customer, MONDAY, type Salon } from "../helpers/salon";
import { shardOf } from "../helpers/every-shard";

/**
 * How SQLite runs each statement of the availability read (EXPLAIN QUERY PLAN,
 * with no statistics, as D1 runs them): every table is reached through an
 * index, never scanned, and calendar entries through a range bounded on both
 * sides. What this guards: rows read that grow with a calendar's past or with
 * the workspace (a chain's staff and catalogue) instead of with the search.
 */
let salon: Salon;
let bookingId: string;

beforeAll(async () => {
  salon = await createSalon(2);
  const booked = await salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      reserved_on: at("09:00"),
      staffer_uuid: salon.staffers[0]?.uuid,
      ...customer(),
    },
  });
  expect(booked.status, JSON.stringify(booked.body)).toBe(201);
  bookingId = booked.body.uuid;
});

type Built = { toSQL(): { sql: string; params: unknown[] } };

/** Each statement's plan lines, with the statement's first table for naming. */
async function plans(
  q: (scope: { db: ReturnType<typeof createDb>; workspaceId: string }) => AvailabilityQuery,
) {
  // The plan of the workspace's own database: the union view would repeat it once per shard.
  const shard = (await shardOf(salon.ws.id)).db;
  const scope = { db: createDb(shard), workspaceId: salon.ws.id };
  const statements = availabilityReads(scope, q(scope)) as unknown as Built[];
  return Promise.all(
    statements.map(async (s) => {
      const { sql, params } = s.toSQL();
      const plan = await shard
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...params)
        .all<{ detail: string }>();
      return { sql, plan: plan.results.map((r) => r.detail) };
    }),
  );
}

function expectIndexed(found: { sql: string; plan: string[] }[]) {
  for (const { sql, plan } of found) {
    // `SCAN json_each` is a bound id list; any other SCAN reads a whole table.
    expect(
      plan.filter((d) => d.startsWith("SCAN") && !d.startsWith("SCAN json_each")),
      sql,
    ).toEqual([]);
    // Staff by id, found from the location; services by id: never the workspace's all.
    expect(
      plan.filter((d) => /SEARCH (staffers|services) .*\(workspace_id=\?\)/.test(d)),
      sql,
    ).toEqual([]);
    for (const d of plan.filter((d) => d.startsWith("SEARCH calendar_entries"))) {
      expect(d, sql).toMatch(/starts_at>\? AND starts_at<\?\)$/);
    }
  }
  const entries = found
    .flatMap((f) => f.plan)
    .filter((d) => d.startsWith("SEARCH calendar_entries"));
  expect(entries).toEqual([
    "SEARCH calendar_entries USING INDEX calendar_entries_staffer_start_idx (staffer_id=? AND starts_at>? AND starts_at<?)",
    "SEARCH calendar_entries USING INDEX calendar_entries_resource_start_idx (resource_id=? AND unit=? AND starts_at>? AND starts_at<?)",
  ]);
}

describe("the availability read's query plans", () => {
  it("a search: known location, services and dates", async () => {
    expectIndexed(
      await plans(() => ({
        locationId: salon.location.uuid,
        serviceIds: [salon.cut.uuid, salon.colour.uuid],
        fromDate: MONDAY,
        toDate: "2030-05-04",
        widgetOnly: true,
      })),
    );
  });

  it("a search for named staffers", async () => {
    expectIndexed(
      await plans(() => ({
        locationId: salon.location.uuid,
        serviceIds: [salon.cut.uuid],
        stafferIds: salon.staffers.map((s) => s.uuid),
        fromDate: MONDAY,
        toDate: "2030-05-04",
      })),
    );
  });

  it("a booking change: everything a subquery on the booking", async () => {
    expectIndexed(
      await plans((scope) => {
        const its = bookingRefs(scope, bookingId);
        return {
          locationId: its.locationId,
          serviceIds: its.serviceIds,
          stafferIds: its.stafferIds,
          fromDate: its.startDate(-1),
          toDate: its.startDate(1),
        };
      }),
    );
  });
});
