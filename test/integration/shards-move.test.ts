import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { failpoints } from "../../src/platform/failpoints";
import { MOVE_FAILPOINTS } from "../../src/shards/move-failpoints";
import { expectInSync } from "../helpers/calendar";
import { admin } from "../helpers/http";
import { LISTS, moveReaches, startMove } from "../helpers/moves";
import { at, customer, MONDAY } from "../helpers/salon";
import {
  otherShard,
  placementIn,
  rowsPerShard,
  type ShardName,
  settle,
  workspaceRows,
} from "../helpers/shard-rows";
import { createShop, openOrder, payOrder, type Shop, sellVouchers } from "../helpers/shop";
import { joined } from "../helpers/waitlist";

afterEach(() => failpoints.disarmAll());

async function book(shop: Shop, hhmm: string, staffer = 0, date = MONDAY) {
  const res = await shop.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: shop.location.uuid,
      service_uuid: shop.cut.uuid,
      staffer_uuid: shop.staffers[staffer]?.uuid,
      reserved_on: at(hhmm, date),
      ...customer(),
    },
  });
  return res;
}

/** A workspace with a bit of everything: bookings, POS orders and vouchers, a webhook, the waitlist. */
async function busyShop(): Promise<Shop> {
  const shop = await createShop();
  const hook = await shop.ws.api("/webhooks", {
    method: "POST",
    // An event these writes never raise: no delivery keeps retrying an address the tests
    // cannot reach while the rows are compared.
    body: { url: "https://hooks.example.com/salon", events: ["booking-canceled"] },
  });
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  // A delivery and its retry schedule, as a failed send leaves them (its attempts name no
  // workspace: they move through their webhook). Due far ahead, so no sweep touches them.
  const db = env[shop.ws.shard as ShardName];
  await db.batch([
    db
      .prepare(
        "INSERT INTO webhook_deliveries (id, workspace_id, webhook_id, event_id, event_type, attempt, status_code, success, created_at) VALUES (?1, ?2, ?3, 'ev-moved', 'booking-canceled', 1, 500, 0, 0)",
      )
      .bind(crypto.randomUUID(), shop.ws.id, hook.body.id),
    db
      .prepare(
        "INSERT INTO webhook_attempts (event_id, webhook_id, attempts, next_attempt_at, expires_at) VALUES ('ev-moved', ?1, 1, 4102444800000, 4102444800000)",
      )
      .bind(hook.body.id),
  ]);
  for (const [hhmm, staffer] of [
    ["09:00", 0],
    ["10:00", 0],
    ["11:00", 1],
  ] as const) {
    const res = await book(shop, hhmm, staffer);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  await sellVouchers(shop, 2);
  const order = await openOrder(shop, {
    goods: [{ good_uuid: shop.shampoo.uuid, quantity: 2, price: 1250 }],
  });
  expect((await payOrder(shop, order.uuid, { account_uuid: shop.card.uuid })).status).toBe(200);
  await joined(shop, shop.ws.api);
  await settle(shop.ws.shard as ShardName, shop.ws.id);
  return shop;
}

const readLists = async (shop: Shop) =>
  Object.fromEntries(
    await Promise.all(
      LISTS.map(async (path) => {
        const res = await shop.ws.api(path);
        expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
        return [path, res.body] as const;
      }),
    ),
  );

describe("moving a workspace between shards", () => {
  let shop: Shop;
  let from: ShardName;
  let to: ShardName;

  beforeAll(async () => {
    shop = await busyShop();
    from = shop.ws.shard as ShardName;
    to = otherShard(from);
  }, 60_000);

  it("copies every row to the target, deletes it from the source, and answers the same after", async () => {
    const before = await workspaceRows(from, shop.ws.id);
    for (const table of [
      "bookings",
      "booking_services",
      "calendar_entries",
      "orders",
      "vouchers",
      "account_transactions",
      "webhooks",
      "webhook_deliveries",
      "webhook_attempts",
      "events",
      "waitlist_entries",
      "messages",
    ]) {
      expect(before[table]?.length ?? 0, table).toBeGreaterThan(0);
    }
    const lists = await readLists(shop);
    // Held at its first step, the move has the writes paused and the reads still served.
    failpoints.arm(MOVE_FAILPOINTS.paused, () => true, 1_000);
    const started = await startMove(shop.ws.id, to);
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.body).toMatchObject({ workspace: shop.ws.id, from, to, status: "copying" });

    const write = await book(shop, "14:00");
    expect(write.status, JSON.stringify(write.body)).toBe(503);
    expect(write.body.code).toBe("workspace_moving");
    expect(write.headers.get("retry-after")).toBe("1");
    const pos = await openOrder(shop, {
      goods: [{ good_uuid: shop.shampoo.uuid, quantity: 1, price: 1250 }],
    }).catch((error: unknown) => error);
    expect(String(pos)).toContain("503");
    expect(await readLists(shop)).toEqual(lists);
    const view = await admin(`/workspaces/${shop.ws.id}`);
    expect(view.body).toMatchObject({ shard: from, move: { status: "copying" } });
    // Nothing the refused writes tried is anywhere.
    expect(await workspaceRows(from, shop.ws.id)).toEqual(before);

    failpoints.disarmAll();
    const done = await moveReaches(shop.ws.id);
    expect(done.shard).toBe(to);
    expect(done.move.copied_rows).toBe(
      Object.values(before).reduce((n, rows) => n + rows.length, 0),
    );
    expect(await workspaceRows(to, shop.ws.id)).toEqual(before);
    expect(await rowsPerShard(shop.ws.id)).toEqual(
      Object.fromEntries(
        ["SHARD_0", "SHARD_1", "SHARD_2", "SHARD_3"].map((s) => [
          s,
          s === to ? expect.any(Number) : 0,
        ]),
      ),
    );
    expect(await placementIn(to, shop.ws.id)).toBe("open");
    expect(await placementIn(from, shop.ws.id)).toBeNull();
    expect(await readLists(shop)).toEqual(lists);
    await expectInSync(
      shop.ws.id,
      shop.staffers.map((s) => s.uuid),
    );

    // Writes go on, on the target.
    const after = await book(shop, "15:00", 1);
    expect(after.status, JSON.stringify(after.body)).toBe(201);
    const rows = await workspaceRows(to, shop.ws.id);
    expect(rows.bookings?.map((b) => b.id)).toContain(after.body.uuid);
    await expectInSync(
      shop.ws.id,
      shop.staffers.map((s) => s.uuid),
    );
  }, 60_000);

  it("lists the shards with the directory's counts and each database's size", async () => {
    const res = await admin("/shards");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const names = res.body.data.map((s: { name: string }) => s.name);
    expect(names).toEqual(["DB", "SHARD_0", "SHARD_1", "SHARD_2", "SHARD_3"]);
    const target = res.body.data.find((s: { name: string }) => s.name === to);
    expect(target.workspaces).toBeGreaterThanOrEqual(1);
    expect(target.size_bytes).toBeGreaterThan(0);
    const total = res.body.data.reduce(
      (n: number, s: { workspaces: number }) => n + s.workspaces,
      0,
    );
    expect(total).toBe(1);
  });

  it("refuses an unknown shard (422), the shard it is on (409), an unknown workspace (404)", async () => {
    const unknown = await startMove(shop.ws.id, "SHARD_9");
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe("validation_failed");
    expect(Object.keys(unknown.body.errors)).toEqual(["shard"]);
    const directory = await startMove(shop.ws.id, "DB");
    expect(directory.status).toBe(422);
    const here = await startMove(shop.ws.id, to);
    expect(here.status).toBe(409);
    expect(here.body.code).toBe("conflict");
    const nobody = await startMove("00000000-0000-4000-8000-000000000000", from);
    expect(nobody.status).toBe(404);
  });

  it("answers the move under way for the same target (202) and 409 for another", async () => {
    failpoints.arm(MOVE_FAILPOINTS.paused, () => true, 1_000);
    const first = await startMove(shop.ws.id, from);
    expect(first.status).toBe(202);
    const again = await startMove(shop.ws.id, from);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ from: to, to: from });
    const third =
      otherShard(to) === from
        ? (["SHARD_0", "SHARD_1", "SHARD_2", "SHARD_3"] as const).find(
            (s) => s !== from && s !== to,
          )
        : otherShard(to);
    const other = await startMove(shop.ws.id, third as string);
    expect(other.status).toBe(409);
    failpoints.disarmAll();
    const done = await moveReaches(shop.ws.id);
    expect(done.shard).toBe(from);
  });
});
