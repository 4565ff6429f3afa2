import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { D1Counter, instrumentD1 } from "../../src/db/instrumented-d1";
import { candidatesRead } from "../../src/waitlist/queries/waitlist";
import { run } from "../../src/db/reads";
import { createMessagingSalon } from "../helpers/messages";
import { plusDays, WAIT_DAY } from "../helpers/waitlist";
import { everyShard } from "../helpers/every-shard";

/**
 * The desk's candidate query with 1,000 entries waiting at a location, 20 on each of 50
 * days: freed time on one day reads that day's rows of the matching index and those
 * entries, never the other 980 (D1's own rows_read).
 */
describe("matching with 1,000 waiting entries", () => {
  it("reads the freed day's entries, not the whole list", async () => {
    const { salon } = await createMessagingSalon(1);
    const now = Date.now();
    const entries = Array.from({ length: 1_000 }, (_, i) => ({
      id: crypto.randomUUID(),
      day: plusDays(WAIT_DAY, i % 50),
      at: now + i,
    }));
    const services = JSON.stringify([{ service_uuid: salon.cut.uuid, staffer_uuid: null }]);
    await everyShard.batch([
      everyShard
        .prepare(
          `insert into waitlist_entries (id, workspace_id, location_id, services, phone, first_name,
           from_date, to_date, window_start, window_end, status, api_key_id,
           created_at, updated_at)
         select json_extract(value, '$.id'), ?1, ?2, ?3, '+4915100000000', 'Crowd',
           json_extract(value, '$.day'), json_extract(value, '$.day'), 0, 9999999999999,
           'waiting', 'key', json_extract(value, '$.at'), json_extract(value, '$.at')
         from json_each(?4)`,
        )
        .bind(salon.ws.id, salon.location.uuid, services, JSON.stringify(entries)),
      everyShard
        .prepare(
          `insert into waitlist_days (workspace_id, location_id, day, service_id, entry_id, created_at)
         select ?1, ?2, json_extract(value, '$.day'), ?3, json_extract(value, '$.id'), json_extract(value, '$.at')
         from json_each(?4)`,
        )
        .bind(salon.ws.id, salon.location.uuid, salon.cut.uuid, JSON.stringify(entries)),
    ]);
    const counter = new D1Counter();
    const scope = { db: createDb(instrumentD1(everyShard, counter)), workspaceId: salon.ws.id };
    const day = plusDays(WAIT_DAY, 7);
    const found = await run(
      scope.db,
      candidatesRead(scope, {
        locationId: salon.location.uuid,
        days: [day],
        stafferIds: [salon.staffers[0]?.uuid ?? ""],
        resourceIds: [],
        serviceIds: [],
        excluded: [],
        limit: 25,
      }),
    );
    expect(found.map((e) => e.id)).toEqual(entries.filter((e) => e.day === day).map((e) => e.id));
    // The day's 20 index rows and 20 entries, and the lookups around them (92 when measured):
    // what grows with the day's entries, not with the 1,000 (a scan reads over 1,000).
    expect(counter.rowsRead).toBeLessThan(200);
  });
});
