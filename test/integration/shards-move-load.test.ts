import { env } from "cloudflare:workers";
import { afterEach, expect, it } from "vitest";
import { failpoints } from "../../src/platform/failpoints";
import { MOVE_FAILPOINTS } from "../../src/shards/move-failpoints";
import { admin } from "../helpers/http";
import { startMove } from "../helpers/moves";
import { customer } from "../helpers/salon";
import { otherShard, rowsPerShard, type ShardName, SHARDS, sleep } from "../helpers/shard-rows";
import { createShop } from "../helpers/shop";

afterEach(() => failpoints.disarmAll());

interface Outcome {
  kind: "book" | "cancel" | "order";
  status: number;
  id: string;
  retryAfter: string | null;
}

/** Weekday slots (2030, Mon–Fri, 09:00–17:00 Berlin), one per index, for two staffers. */
function slot(i: number) {
  const day = Math.floor(i / 16);
  const week = Math.floor(day / 5);
  const date = new Date(Date.UTC(2030, 2, 4 + week * 7 + (day % 5)));
  const hour = 8 + (Math.floor(i / 2) % 8);
  return {
    reserved_on: `${date.toISOString().slice(0, 10)}T${String(hour).padStart(2, "0")}:00:00Z`,
    staffer: i % 2,
  };
}

it("under concurrent bookings, cancels and POS writes, every 2xx is on the target and every 503 left nothing", async () => {
  const shop = await createShop();
  const from = shop.ws.shard as ShardName;
  const to = otherShard(from);
  let next = 0;
  const book = async (): Promise<Outcome> => {
    const { reserved_on, staffer } = slot(next++);
    const res = await shop.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: shop.location.uuid,
        service_uuid: shop.cut.uuid,
        staffer_uuid: shop.staffers[staffer]?.uuid,
        reserved_on,
        ...customer(),
      },
    });
    return {
      kind: "book",
      status: res.status,
      id: res.body?.uuid ?? "",
      retryAfter: res.headers.get("retry-after"),
    };
  };
  // Bookings to cancel during the move.
  const toCancel: string[] = [];
  for (let i = 0; i < 12; i++) {
    const made = await book();
    expect(made.status).toBe(201);
    toCancel.push(made.id);
  }
  const cancel = async (): Promise<Outcome | null> => {
    const id = toCancel.shift();
    if (!id) return null;
    const res = await shop.ws.api(`/bookings/${id}/status/cancel`, { method: "PUT", body: {} });
    return { kind: "cancel", status: res.status, id, retryAfter: res.headers.get("retry-after") };
  };
  const order = async (): Promise<Outcome> => {
    const res = await shop.ws.api("/orders", {
      method: "POST",
      body: {
        location_uuid: shop.location.uuid,
        staffer_uuid: shop.seller.uuid,
        goods: [{ good_uuid: shop.shampoo.uuid, quantity: 1, price: 1250 }],
      },
    });
    return {
      kind: "order",
      status: res.status,
      id: res.body?.uuid ?? "",
      retryAfter: res.headers.get("retry-after"),
    };
  };
  // Every booking before the move (those the cancels will take among them).
  const initial = new Set(
    (
      await env[from]
        .prepare("SELECT id FROM bookings WHERE workspace_id = ?")
        .bind(shop.ws.id)
        .all<{ id: string }>()
    ).results.map((r) => r.id),
  );

  // Held at its first step once (the runner's retry comes 2 s later): the writes meet a pause.
  failpoints.arm(MOVE_FAILPOINTS.paused);
  const outcomes: Outcome[] = [];
  let moving = true;
  const loop = async (write: () => Promise<Outcome | null>) => {
    let after = 0;
    while (moving || after++ < 3) {
      const outcome = await write();
      if (outcome) outcomes.push(outcome);
      await sleep(40);
    }
  };
  const writers = [loop(book), loop(book), loop(cancel), loop(order)];
  await sleep(200);
  const started = await startMove(shop.ws.id, to);
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  for (let i = 0; i < 300; i++) {
    const view = await admin(`/workspaces/${shop.ws.id}`);
    if (view.body.move?.status === "done") break;
    await sleep(100);
  }
  moving = false;
  await Promise.all(writers);
  expect((await admin(`/workspaces/${shop.ws.id}`)).body).toMatchObject({
    shard: to,
    move: { status: "done" },
  });

  const statuses = outcomes.map((o) => o.status);
  expect(
    statuses.filter((s) => s !== 503 && (s < 200 || s > 299)),
    JSON.stringify(outcomes),
  ).toEqual([]);
  const refused = outcomes.filter((o) => o.status === 503);
  expect(refused.length, "writes met the pause").toBeGreaterThan(0);
  expect(refused.every((o) => o.retryAfter !== null)).toBe(true);
  expect(outcomes.filter((o) => o.status < 300).length, "writes went through").toBeGreaterThan(0);

  // Let the writes' background work (calendar confirms, outbox) land, then read the target.
  await sleep(1_500);
  const read = async (sql: string) =>
    (await env[to].prepare(sql).bind(shop.ws.id).all<{ id: string; is_canceled?: number }>())
      .results;
  const booked = new Set(
    (await read("SELECT id FROM bookings WHERE workspace_id = ?")).map((r) => r.id),
  );
  const madeOk = outcomes.filter((o) => o.kind === "book" && o.status === 201).map((o) => o.id);
  expect(booked).toEqual(new Set([...initial, ...madeOk]));
  const canceled = new Map(
    (await read("SELECT id, is_canceled FROM bookings WHERE workspace_id = ?")).map((r) => [
      r.id,
      r.is_canceled,
    ]),
  );
  for (const o of outcomes.filter((x) => x.kind === "cancel")) {
    expect(canceled.get(o.id), `${o.id} cancel answered ${o.status}`).toBe(
      o.status === 200 ? 1 : 0,
    );
  }
  const orders = new Set(
    // A booking's own order aside (the bookings are compared above): the POS orders, and any
    // order a refused write would have left behind.
    (
      await read(
        "SELECT id FROM orders WHERE workspace_id = ?1 AND id NOT IN (SELECT order_id FROM bookings WHERE workspace_id = ?1 AND order_id IS NOT NULL)",
      )
    ).map((r) => r.id),
  );
  expect(orders, JSON.stringify(outcomes.filter((o) => o.kind === "order"))).toEqual(
    new Set(outcomes.filter((o) => o.kind === "order" && o.status === 201).map((o) => o.id)),
  );
  const perShard = await rowsPerShard(shop.ws.id);
  expect(SHARDS.filter((s) => perShard[s] !== 0)).toEqual([to]);
}, 90_000);
