import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../src/env";
import { onError } from "../../src/lib/error-handler";
import { adminRateLimit } from "../../src/middleware/rate-limit";
import { createWorkspace } from "../helpers/factory";
import type { Received } from "../helpers/http";

/**
 * Calls in rounds of 50 until the first 429. The binding counts in fixed
 * windows (a minute in the test configuration), so a burst that straddles a
 * window boundary may get up to twice the limit through; never more.
 */
async function untilLimited(limit: number, call: () => Promise<Received>) {
  let allowed = 0;
  for (let sent = 0; sent < 2 * limit + 50; sent += 50) {
    const round = await Promise.all(Array.from({ length: 50 }, call));
    const limited = round.find((r) => r.status === 429);
    allowed += round.filter((r) => r.status !== 429).length;
    if (limited) return { allowed, limited };
  }
  throw new Error(`no 429 after ${2 * limit + 50} calls`);
}

describe("rate limits", () => {
  it("limits each API key through the rate-limit binding: 429, Retry-After, error body", async () => {
    const ws = await createWorkspace();
    const { allowed, limited } = await untilLimited(300, () => ws.api("/locations"));
    expect(allowed).toBeGreaterThanOrEqual(300);
    expect(allowed).toBeLessThanOrEqual(600);
    expect(limited.headers.get("retry-after")).toBe("10");
    expect(limited.body).toEqual({
      message: "Too many requests; slow down and retry later.",
      code: "rate_limited",
    });
    // Another workspace's key has its own allowance.
    const other = await createWorkspace();
    expect((await other.api("/locations")).status).toBe(200);
  }, 60_000);

  it("limits the management API per client address, before the token is checked", async () => {
    const seen: string[] = [];
    const allowOnce = new Set<string>();
    const fake: RateLimit = {
      async limit({ key }) {
        seen.push(key);
        const first = !allowOnce.has(key);
        allowOnce.add(key);
        return { success: first };
      },
    };
    const app = new Hono<AppEnv>();
    app.use(adminRateLimit);
    app.get("/", (c) => c.text("ok"));
    app.onError(onError);
    const call = (ip: string) =>
      app.request("/", { headers: { "cf-connecting-ip": ip } }, { ...env, ADMIN_RATE_LIMIT: fake });
    expect((await call("203.0.113.7")).status).toBe(200);
    const second = await call("203.0.113.7");
    expect(second.status).toBe(429);
    expect(await second.json()).toMatchObject({ code: "rate_limited" });
    expect((await call("203.0.113.8")).status).toBe(200);
    expect(seen).toEqual(["ip:203.0.113.7", "ip:203.0.113.7", "ip:203.0.113.8"]);
  });
});
