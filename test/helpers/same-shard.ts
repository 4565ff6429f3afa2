import { createWorkspace, type TestWorkspace } from "./factory";
import { createSalon, type Salon } from "./salon";

/**
 * Workspaces that share one shard, for code that reads a single database (a
 * query over several workspaces, a whole-shard sweep): a test of "another
 * workspace's rows never come back" means something only when those rows are
 * on the database read. New workspaces go to the emptiest shard, so a few
 * creations land two together.
 */
export async function workspacesTogether(count: number, shard?: string): Promise<TestWorkspace[]> {
  const byShard = new Map<string, TestWorkspace[]>();
  for (let tries = 0; tries < 8 * Math.max(count, 2); tries++) {
    const ws = await createWorkspace();
    if (shard !== undefined && ws.shard !== shard) continue;
    const group = [...(byShard.get(ws.shard) ?? []), ws];
    if (group.length === count) return group;
    byShard.set(ws.shard, group);
  }
  throw new Error(`no ${count} new workspaces landed on one shard${shard ? ` (${shard})` : ""}`);
}

/** A new workspace on the same shard as `beside`. */
export async function workspaceBeside(beside: { shard: string }): Promise<TestWorkspace> {
  const [ws] = await workspacesTogether(1, beside.shard);
  if (!ws) throw new Error("no workspace");
  return ws;
}

/** A salon (createSalon) on the given shard: salons are made until one lands there. */
export async function salonOn(shard: string, staffCount: number): Promise<Salon> {
  for (let tries = 0; tries < 12; tries++) {
    const salon = await createSalon(staffCount);
    if (salon.ws.shard === shard) return salon;
  }
  throw new Error(`no salon landed on ${shard}`);
}
