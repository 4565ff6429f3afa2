import { env } from "cloudflare:workers";
import { expect, vi } from "vitest";
import { admin } from "./http";

export const startMove = (workspaceId: string, shard: string) =>
  admin(`/workspaces/${workspaceId}/move`, { method: "POST", body: { shard } });

/** The workspace's view once its move is `status` (the runner's alarms go on by themselves). */
export async function moveReaches(workspaceId: string, status = "done", timeout = 15_000) {
  return vi.waitFor(
    async () => {
      const res = await admin(`/workspaces/${workspaceId}`);
      expect(res.status).toBe(200);
      const row = await env.DB.prepare("SELECT * FROM workspace_moves WHERE workspace_id = ?")
        .bind(workspaceId)
        .first();
      expect(res.body.move?.status, JSON.stringify(row)).toBe(status);
      return res.body as { shard: string; move: { status: string; copied_rows: number } };
    },
    { timeout, interval: 50 },
  );
}

/** The lists a client reads, to compare before and after a move. */
export const LISTS = [
  "/bookings?per_page=100",
  "/customers?per_page=100",
  "/orders?per_page=100",
  "/webhooks",
  "/waitlist",
  "/messages?per_page=100",
  "/goods",
  "/accounts",
  "/services",
  "/staffers",
  "/locations",
  "/booking-statuses",
  "/workspace",
];
