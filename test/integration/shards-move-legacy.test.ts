import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { admin } from "../helpers/http";
import { moveReaches, startMove } from "../helpers/moves";
import { rowsPerShard, workspaceRows } from "../helpers/shard-rows";

it("moves a workspace from before the shards out of the directory, keeping its directory row", async () => {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    "INSERT INTO workspaces (id, name, country, currency, locale, timezone, created_at, shard, placement) VALUES (?, 'Old salon', 'DE', 'EUR', 'en', 'Europe/Berlin', 0, 'DB', 'open')",
  )
    .bind(id)
    .run();
  const location = await admin(`/workspaces/${id}/locations`, {
    method: "POST",
    body: { name: "Old street", timezone: "Europe/Berlin" },
  });
  expect(location.status, JSON.stringify(location.body)).toBe(201);
  const before = await workspaceRows("DB", id);
  expect(before.locations).toHaveLength(1);

  const started = await startMove(id, "SHARD_2");
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  expect(started.body).toMatchObject({ from: "DB", to: "SHARD_2" });
  expect((await moveReaches(id)).shard).toBe("SHARD_2");

  expect(await workspaceRows("SHARD_2", id)).toEqual(before);
  // In the directory only its directory row is left: the workspace lives on SHARD_2 now.
  const left = await workspaceRows("DB", id);
  expect(Object.keys(left)).toEqual(["workspaces"]);
  const row = await env.DB.prepare("SELECT shard, placement FROM workspaces WHERE id = ?")
    .bind(id)
    .first();
  expect(row).toEqual({ shard: "SHARD_2", placement: "directory" });
  expect(Object.entries(await rowsPerShard(id)).filter(([, n]) => n > 0)).toEqual([
    ["SHARD_2", Object.values(before).flat().length],
  ]);
  // The management API goes on, on the new shard.
  const staffer = await admin(`/workspaces/${id}/staffers`, {
    method: "POST",
    body: { first_name: "New", location_uuids: [location.body.uuid] },
  });
  expect(staffer.status, JSON.stringify(staffer.body)).toBe(201);
  expect((await workspaceRows("SHARD_2", id)).staffers).toHaveLength(1);
});
