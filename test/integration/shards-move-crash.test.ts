import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { resumeMoves } from "../../src/shards/resume";
import { failpoints } from "../../src/platform/failpoints";
import { MOVE_FAILPOINTS } from "../../src/shards/move-failpoints";
import { expectInSync } from "../helpers/calendar";
import { admin } from "../helpers/http";
import { moveReaches, startMove } from "../helpers/moves";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import {
  otherShard,
  placementIn,
  rowsPerShard,
  type ShardName,
  SHARDS,
  settle,
  sleep,
  workspaceRows,
} from "../helpers/shard-rows";
import { joined } from "../helpers/waitlist";

afterEach(() => failpoints.disarmAll());

const moveRow = (workspaceId: string) =>
  env.DB.prepare("SELECT * FROM workspace_moves WHERE workspace_id = ?")
    .bind(workspaceId)
    .first<{ attempts: number; last_error: string | null; status: string }>();

let salon: Salon;
let bookings = 0;

/** The next free hour of the day, each staffer in turn (a 45-minute cut and its pause). */
async function book() {
  const hhmm = `${String(9 + Math.floor(bookings / 2)).padStart(2, "0")}:00`;
  const res = await salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      staffer_uuid: salon.staffers[bookings % 2]?.uuid,
      reserved_on: at(hhmm, "2030-03-05"),
      ...customer(),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  bookings += 1;
}

describe("a move stopped at any step resumes and ends whole on one shard", () => {
  beforeAll(async () => {
    salon = await createSalon(2);
    await book();
    await joined(salon, salon.ws.api);
    const hook = await salon.ws.api("/webhooks", {
      method: "POST",
      body: { url: "https://hooks.example.com/x", events: ["booking-canceled"] },
    });
    expect(hook.status).toBe(201);
  }, 60_000);

  // Each case moves the workspace on from where the last one left it, stopped once at `point`
  // (the runner throws there, as a crash would end it; its alarm runs it again 2 s later).
  const points = Object.entries(MOVE_FAILPOINTS);
  it.each(points)(
    "stopped at %s (%s)",
    async (_key, point) => {
      const { shard: from } = (await admin(`/workspaces/${salon.ws.id}`)).body as {
        shard: ShardName;
      };
      // One write before each move: it must be on the target afterwards, once.
      await book();
      await settle(from, salon.ws.id);
      const before = await workspaceRows(from, salon.ws.id);
      const to = otherShard(from);
      const hits = failpoints.hits(point);
      failpoints.arm(point);
      const started = await startMove(salon.ws.id, to);
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      const done = await moveReaches(salon.ws.id);
      expect(failpoints.hits(point)).toBeGreaterThan(hits);
      expect((await moveRow(salon.ws.id))?.attempts).toBeGreaterThanOrEqual(1);
      expect(done.shard).toBe(to);
      expect(await workspaceRows(to, salon.ws.id)).toEqual(before);
      const perShard = await rowsPerShard(salon.ws.id);
      expect(SHARDS.filter((s) => perShard[s] !== 0)).toEqual([to]);
      expect(await placementIn(to, salon.ws.id)).toBe("open");
      expect(await placementIn(from, salon.ws.id)).toBeNull();
      expect((await workspaceRows(to, salon.ws.id)).bookings).toHaveLength(bookings);
      await expectInSync(
        salon.ws.id,
        salon.staffers.map((s) => s.uuid),
      );
    },
    60_000,
  );
});

describe("a renumbered table", () => {
  it("stopped after a chunk went in, is copied again from its start: no row twice", async () => {
    const lone = await createSalon(1);
    const from = lone.ws.shard as ShardName;
    const to = otherShard(from);
    const db = env[from];
    // Freed time due far ahead (no desk takes it meanwhile): rows the target numbers anew.
    await db.batch(
      [1, 2, 3].map((i) =>
        db
          .prepare(
            "INSERT INTO waitlist_freed (workspace_id, location_id, starts_at, ends_at, due_at, created_at) VALUES (?1, ?2, ?3, ?3 + 3600000, 4102444800000, 0)",
          )
          .bind(lone.ws.id, lone.location.uuid, 1_900_000_000_000 + i * 3_600_000),
      ),
    );
    const before = await workspaceRows(from, lone.ws.id);
    failpoints.arm(MOVE_FAILPOINTS.copyChunk, (table) => table === "waitlist_freed");
    expect((await startMove(lone.ws.id, to)).status).toBe(202);
    const done = await moveReaches(lone.ws.id);
    expect((await moveRow(lone.ws.id))?.attempts).toBe(1);
    expect(await workspaceRows(to, lone.ws.id)).toEqual(before);
    expect(done.move.copied_rows).toBe(Object.values(before).flat().length);
  }, 60_000);
});

describe("the cron's resumeMoves", () => {
  it("wakes a move whose runner stopped, and leaves moves that progress alone", async () => {
    const lone = await createSalon(1);
    const to = otherShard(lone.ws.shard);
    failpoints.arm(MOVE_FAILPOINTS.paused, () => true, 1_000);
    expect((await startMove(lone.ws.id, to)).status).toBe(202);
    await vi.waitFor(async () => expect((await moveRow(lone.ws.id))?.attempts).toBeGreaterThan(0));
    // The runner dies with its schedule: nothing moves the workspace on by itself any more.
    const mover = env.SHARD_MOVERS.getByName(lone.ws.id);
    await runInDurableObject(mover, async (_object, state) => {
      await state.storage.deleteAlarm();
      await state.storage.deleteAll();
    });
    failpoints.disarmAll();
    await sleep(2_500);
    expect((await moveRow(lone.ws.id))?.status).toBe("copying");
    expect(await resumeMoves(env)).toBe(0);
    // A minute without progress: the cron wakes it.
    await env.DB.prepare(
      "UPDATE workspace_moves SET updated_at = updated_at - 61000 WHERE workspace_id = ?",
    )
      .bind(lone.ws.id)
      .run();
    expect(await resumeMoves(env)).toBe(1);
    expect((await moveReaches(lone.ws.id)).shard).toBe(to);
  }, 60_000);
});

describe("a move the target cannot take", () => {
  it("is aborted when a row is refused there: the source reopens, the target's copy goes", async () => {
    const lone = await createSalon(1);
    const from = lone.ws.shard as ShardName;
    const to = otherShard(from);
    const staffer = lone.staffers[0]?.uuid ?? "";
    // A calendar feed whose token another workspace on the target holds (a unique column
    // across workspaces): the target refuses the copy's row.
    await env[from]
      .prepare(
        "INSERT INTO calendar_feeds (staffer_id, workspace_id, token_hash, created_at) VALUES (?, ?, 'clash', 0)",
      )
      .bind(staffer, lone.ws.id)
      .run();
    const db = env[to];
    await db.batch([
      db
        .prepare(
          "INSERT INTO workspaces (id, name, country, currency, locale, timezone, created_at, shard) VALUES ('feed-owner', 'Other', 'DE', 'EUR', 'en', 'Europe/Berlin', 0, ?)",
        )
        .bind(to),
      db.prepare(
        "INSERT INTO staffers (id, workspace_id, first_name, created_at) VALUES ('feed-staffer', 'feed-owner', 'X', 0)",
      ),
      db.prepare(
        "INSERT INTO calendar_feeds (staffer_id, workspace_id, token_hash, created_at) VALUES ('feed-staffer', 'feed-owner', 'clash', 0)",
      ),
    ]);
    const before = await workspaceRows(from, lone.ws.id);
    expect((await startMove(lone.ws.id, to)).status).toBe(202);
    await moveReaches(lone.ws.id, "aborted");
    expect((await moveRow(lone.ws.id))?.last_error).toContain(
      "calendar_feeds: 1 on the source, 0 on the target",
    );
    expect(await placementIn(from, lone.ws.id)).toBe("open");
    expect(await workspaceRows(from, lone.ws.id)).toEqual(before);
    const perShard = await rowsPerShard(lone.ws.id);
    expect(SHARDS.filter((s) => perShard[s] !== 0)).toEqual([from]);
    expect((await admin(`/workspaces/${lone.ws.id}`)).body).toMatchObject({
      shard: from,
      move: { status: "aborted" },
    });
    // Writes go on where it is; another move may be asked for.
    const created = await lone.ws.api("/services", {
      method: "POST",
      body: { name: "Trim", duration: 30, price: 1000 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  }, 60_000);

  it("is refused (409) when the target numbers another workspace's webhook as this one's", async () => {
    const mine = await createSalon(1);
    const target = otherShard(mine.ws.shard);
    // A webhook on each side, each the first its shard numbers: the same id.
    const hook = await mine.ws.api("/webhooks", {
      method: "POST",
      body: { url: "https://hooks.example.com/a", events: ["booking-canceled"] },
    });
    expect(hook.status).toBe(201);
    const theirs = await env[target]
      .prepare("SELECT id FROM webhooks WHERE id = ?")
      .bind(hook.body.id)
      .first();
    if (!theirs) {
      const db = env[target];
      await db.batch([
        db
          .prepare(
            "INSERT INTO workspaces (id, name, country, currency, locale, timezone, created_at, shard) VALUES ('someone-else', 'Other', 'DE', 'EUR', 'en', 'Europe/Berlin', 0, ?)",
          )
          .bind(target),
        db
          .prepare(
            "INSERT INTO webhooks (id, workspace_id, url, events, secret, created_at, updated_at) VALUES (?, 'someone-else', 'https://x.example', '[]', 's', 0, 0)",
          )
          .bind(hook.body.id),
      ]);
    }
    const refused = await startMove(mine.ws.id, target);
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.code).toBe("conflict");
    // Nothing changed: writes go on where it is.
    expect(await placementIn(mine.ws.shard as ShardName, mine.ws.id)).toBe("open");
    const view = await admin(`/workspaces/${mine.ws.id}`);
    expect(view.body).toMatchObject({ shard: mine.ws.shard, move: null });
  });
});
