import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { runDesk as runDeskNow } from "../../src/waitlist/desk";
import { expectInSync } from "../helpers/calendar";
import { createMessagingSalon, until } from "../helpers/messages";
import type { Salon } from "../helpers/salon";
import { fullDay, joined, local, runDesk, WAIT_DAY } from "../helpers/waitlist";
import { everyShard } from "../helpers/every-shard";

vi.setConfig({ testTimeout: 60_000 });

const DAY = WAIT_DAY;

/** Every live calendar entry of the workspace (bookings, blocks, unexpired holds), per staffer. */
async function liveBusy(workspaceId: string) {
  const now = Date.now();
  const rows = await everyShard
    .prepare(
      `select staffer_id, starts_at, ends_at, kind, source_id from calendar_entries
      where workspace_id = ? and staffer_id is not null and (expires_at is null or expires_at > ?)
      order by staffer_id, starts_at`,
    )
    .bind(workspaceId, now)
    .all<{
      staffer_id: string;
      starts_at: number;
      ends_at: number;
      kind: string;
      source_id: string;
    }>();
  return rows.results;
}

function overlapping(rows: Awaited<ReturnType<typeof liveBusy>>) {
  const found: string[] = [];
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1];
    const b = rows[i];
    if (a && b && a.staffer_id === b.staffer_id && b.starts_at < a.ends_at) {
      found.push(`${a.kind}:${a.source_id} × ${b.kind}:${b.source_id}`);
    }
  }
  return found;
}

const entries = async (salon: Salon) =>
  (
    await everyShard
      .prepare(
        "select id, status, offer_reservation_id, offer_start from waitlist_entries where workspace_id = ? order by created_at, id",
      )
      .bind(salon.ws.id)
      .all<{
        id: string;
        status: string;
        offer_reservation_id: string | null;
        offer_start: number | null;
      }>()
  ).results;

describe("concurrent frees with several entries", () => {
  it("three cancels at once, five entries and staff booking the freed time: no overlapping holds, no 5xx, one offer per entry", async () => {
    const { salon } = await createMessagingSalon(3);
    const bookings = [];
    for (let s = 0; s < 3; s++) bookings.push(await fullDay(salon, DAY, s));
    const ids = [];
    for (let i = 0; i < 5; i++) {
      ids.push(await joined(salon, salon.ws.api, { customer_phone: `+49 151 5000000${i}` }));
    }
    const results = await Promise.all([
      ...bookings.map((b) =>
        salon.ws.api(`/bookings/${b}/status/cancel`, { method: "PUT", body: {} }),
      ),
      // The front desk books a walk-in into the same freed time, racing the desk.
      ...salon.staffers.map((s, i) =>
        salon.ws.api("/bookings", {
          method: "POST",
          body: {
            location_uuid: salon.location.uuid,
            service_uuid: salon.cut.uuid,
            staffer_uuid: s.uuid,
            reserved_on: local(DAY, "09:00"),
            customer_phone: `+49 151 6000000${i}`,
            customer_first_name: "Walk-in",
          },
        }),
      ),
    ]);
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    // The desk settles: every freed 09:00 is either a walk-in's or held for one entry.
    await runDesk(salon);
    await until(async () => (await walkIns(salon)) + (await offers(salon)) >= 3);
    const rows = await entries(salon);
    const offered = rows.filter((e) => e.status === "offered");
    expect(new Set(offered.map((e) => e.offer_reservation_id)).size).toBe(offered.length);
    expect(
      offered.map((e) => e.id),
      JSON.stringify({ rows, ids }),
    ).toEqual(ids.slice(0, offered.length));
    expect(overlapping(await liveBusy(salon.ws.id))).toEqual([]);
    expect(offered.length + (await walkIns(salon))).toBe(3);
    await expectInSync(
      salon.ws.id,
      salon.staffers.map((s) => s.uuid),
    );
  });

  it("two desk runs at once (outside the desk's own serialising) never offer one time twice", async () => {
    const { salon } = await createMessagingSalon(1);
    const booking = await fullDay(salon, DAY);
    const ids = [];
    for (let i = 0; i < 4; i++) {
      ids.push(await joined(salon, salon.ws.api, { customer_phone: `+49 151 7000000${i}` }));
    }
    // The trigger records the freed time; the runs below race for it instead of the desk.
    const res = await salon.ws.api(`/bookings/${booking}/status/cancel`, {
      method: "PUT",
      body: {},
    });
    expect(res.status).toBe(200);
    await Promise.all(
      Array.from({ length: 4 }, () =>
        runDeskNow(env, salon.ws.id, salon.location.uuid).catch(() => null),
      ),
    );
    await runDesk(salon);
    const rows = await entries(salon);
    expect(
      rows.filter((e) => e.status === "offered").map((e) => e.id),
      JSON.stringify({ rows, ids }),
    ).toEqual([ids[0]]);
    expect(overlapping(await liveBusy(salon.ws.id))).toEqual([]);
    await expectInSync(salon.ws.id, [salon.staffers[0]?.uuid ?? ""]);
  });
});

const walkIns = async (salon: Salon) =>
  (
    await everyShard
      .prepare(
        "select count(*) as n from bookings b join customers c on c.id = b.customer_id where b.workspace_id = ? and c.first_name = 'Walk-in' and b.is_canceled = 0",
      )
      .bind(salon.ws.id)
      .first<{ n: number }>()
  )?.n ?? 0;

const offers = async (salon: Salon) =>
  (await entries(salon)).filter((e) => e.status === "offered").length;
