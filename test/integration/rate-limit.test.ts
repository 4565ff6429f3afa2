import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app/app";
import type { OpenEnv } from "../../src/http/env";
import { parseApiKeyId } from "../../src/tenancy/api-keys";
import { createWorkspace } from "../helpers/factory";
import { fakeLimiter } from "../helpers/limiter";
import { ADMIN, ADMIN_TOKEN, d1RoundTrips, PUBLIC, type Received } from "../helpers/http";

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

/**
 * The whole Worker app called in process with the test bindings, or with the public limiters
 * replaced by fakes. In process because the pool's `exports` fetch slows down over the
 * hundreds of calls a limit takes.
 */
function appWith(bindings: Partial<OpenEnv["Bindings"]> = {}) {
  const app = createApp();
  return async (path: string, headers: Record<string, string>): Promise<Received> => {
    const res = await app.request(`${PUBLIC}${path}`, { headers }, { ...env, ...bindings });
    return { status: res.status, headers: res.headers, body: await res.json() };
  };
}

const fakes = (address: RateLimit, perKey: RateLimit) =>
  appWith({ ADDRESS_RATE_LIMIT: address, API_RATE_LIMIT: perKey });

const hex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** A well-formed API key: a random id unless one is given, and a secret that matches nothing. */
const randomKey = (id = hex(crypto.getRandomValues(new Uint8Array(8)))) =>
  `sk_${id}_${"A".repeat(43)}`;

describe("rate limits", () => {
  it("limits each API key through the rate-limit binding: 429, Retry-After, error body", async () => {
    const ws = await createWorkspace();
    const call = appWith();
    const credentials = { authorization: `Bearer ${ws.apiKey}`, workspace: ws.id };
    const { allowed, limited } = await untilLimited(300, () => call("/locations", credentials));
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

  it("counts made-up key ids against the client address, not against buckets of their own", async () => {
    const address = fakeLimiter(5);
    const perKey = fakeLimiter(1_000);
    const call = fakes(address.limiter, perKey.limiter);
    const headers = () => ({
      "cf-connecting-ip": "203.0.113.7",
      authorization: `Bearer ${randomKey()}`,
      workspace: crypto.randomUUID(),
    });
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await call("/locations", headers())).status);
    // Five fresh key ids are five calls from one address; the sixth and seventh are refused.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    expect(new Set(address.keys)).toEqual(new Set(["ip:203.0.113.7"]));
    expect(perKey.keys).toEqual([]);
    // Another address has its own allowance.
    const elsewhere = await call("/locations", { ...headers(), "cf-connecting-ip": "203.0.113.8" });
    expect(elsewhere.status).toBe(401);
  });

  it("checks the client address before authentication, without a D1 round trip", async () => {
    const call = fakes(fakeLimiter(0).limiter, fakeLimiter(1_000).limiter);
    for (const path of ["/locations", "/openapi.json"]) {
      const res = await call(path, { "cf-connecting-ip": "203.0.113.9" });
      expect(res.status, path).toBe(429);
      expect(res.body).toEqual({
        message: "Too many requests; slow down and retry later.",
        code: "rate_limited",
      });
      expect(res.headers.get("retry-after")).toBe("10");
      expect(d1RoundTrips(res.headers)).toBe(0);
    }
  });

  it("counts per key only once the key verified, keyed by the verified key id", async () => {
    const ws = await createWorkspace();
    const id = parseApiKeyId(ws.apiKey) ?? "";
    const perKey = fakeLimiter(1_000);
    const call = fakes(fakeLimiter(1_000).limiter, perKey.limiter);
    const wrong = await call("/locations", {
      authorization: `Bearer ${randomKey(id)}`,
      workspace: ws.id,
    });
    expect(wrong.status).toBe(401);
    expect(perKey.keys).toEqual([]);
    const right = await call("/locations", {
      authorization: `Bearer ${ws.apiKey}`,
      workspace: ws.id,
    });
    expect(right.status).toBe(200);
    expect(perKey.keys).toEqual([`key:${id}`]);
    // The document needs no key and counts against no key.
    expect((await call("/openapi.json", {})).status).toBe(200);
    expect(perKey.keys).toHaveLength(1);
  });

  it("a flood with a known key id and a wrong secret does not lock the real key out", async () => {
    const ws = await createWorkspace();
    const forged = randomKey(parseApiKeyId(ws.apiKey) ?? "");
    const call = appWith();
    // More than twice the per-key limit, so even a flood across a window boundary would exhaust
    // a bucket named after the key id.
    const statuses = new Map<number, number>();
    for (let sent = 0; sent < 2 * 300 + 50; sent += 50) {
      const round = await Promise.all(
        Array.from({ length: 50 }, () =>
          call("/locations", { authorization: `Bearer ${forged}`, workspace: ws.id }),
        ),
      );
      for (const r of round) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 401: 650 });
    const res = await call("/locations", {
      authorization: `Bearer ${ws.apiKey}`,
      workspace: ws.id,
    });
    expect(res.status).toBe(200);
  }, 60_000);

  it("limits the management API per client address, before the token is checked", async () => {
    const ws = await createWorkspace();
    const seen: string[] = [];
    const allowed = new Map<string, number>();
    // Two calls per address, then 429.
    const fake: RateLimit = {
      async limit({ key }) {
        seen.push(key);
        allowed.set(key, (allowed.get(key) ?? 0) + 1);
        return { success: (allowed.get(key) ?? 0) <= 2 };
      },
    };
    // The whole Worker app (its own admin router, token check and error handler), with the
    // management limiter replaced by the fake.
    const app = createApp();
    const call = async (ip: string, token?: string): Promise<Received> => {
      const headers: Record<string, string> = { "cf-connecting-ip": ip };
      if (token) headers.authorization = `Bearer ${token}`;
      const res = await app.request(
        `${ADMIN}/workspaces/${ws.id}`,
        { headers },
        { ...env, ADMIN_RATE_LIMIT: fake },
      );
      return { status: res.status, headers: res.headers, body: await res.json() };
    };
    // Within the allowance: the real token check and the real route answer.
    const ok = await call("203.0.113.7", ADMIN_TOKEN);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((ok.body as { uuid: string }).uuid).toBe(ws.id);
    const noToken = await call("203.0.113.7");
    expect(noToken.status).toBe(401);
    expect(noToken.body).toMatchObject({ code: "unauthenticated" });
    // Over it: 429 whether or not the token is right, and the route is not reached (no D1 trip).
    for (const token of [ADMIN_TOKEN, undefined, "wrong"]) {
      const limited = await call("203.0.113.7", token);
      expect(limited.status, String(token)).toBe(429);
      expect(limited.body).toEqual({
        message: "Too many requests; slow down and retry later.",
        code: "rate_limited",
      });
      expect(limited.headers.get("retry-after")).toBe("10");
      expect(d1RoundTrips(limited.headers)).toBe(0);
    }
    // Another address has its own allowance.
    expect((await call("203.0.113.8", ADMIN_TOKEN)).status).toBe(200);
    expect(seen).toEqual([...Array(5).fill("ip:203.0.113.7"), "ip:203.0.113.8"]);
  });
});
