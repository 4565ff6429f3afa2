import { env, exports } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { readDashboardToken, signDashboardToken } from "../../src/reports/dashboard/token";
import { dayOfDate } from "../../src/reports/rules/days";
import { createLocation, createWorkspace, type TestWorkspace } from "../helpers/factory";
import { admin, BASE, client, type Client } from "../helpers/http";
import { createPublishableKey } from "../helpers/keys";
import { fakeLimiter } from "../helpers/limiter";
import { createApp } from "../../src/app/app";
import type { OpenEnv } from "../../src/http/env";

const SECRET = (env as { MANAGE_TOKEN_SECRET?: string }).MANAGE_TOKEN_SECRET ?? "";
const HOUR = 3_600_000;

/** The page a link opens (HTML: not through `send`, which reads JSON). */
async function open(url: string) {
  const res = await exports.default.fetch(new Request(url));
  return { status: res.status, headers: res.headers, html: await res.text() };
}

async function secretKey(ws: TestWorkspace): Promise<{ id: string; api: Client }> {
  const res = await admin(`/workspaces/${ws.id}/api-keys`, {
    method: "POST",
    body: { kind: "secret" },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, api: client(ws.id, res.body.api_key) };
}

const link = (api: Client, body: Record<string, unknown>) =>
  api("/reports/dashboard-link", { method: "POST", body });

const tokenOf = (url: string) => new URL(url).searchParams.get("token") ?? "";

function grantOf(url: string) {
  const grant = readDashboardToken(SECRET, tokenOf(url));
  if (!grant) throw new Error(`no grant in ${url}`);
  return grant;
}

describe("POST /reports/dashboard-link", () => {
  let ws: TestWorkspace;
  let location: { uuid: string };

  beforeAll(async () => {
    ws = await createWorkspace();
    location = await createLocation(ws, { name: "Main street", timezone: "Europe/Berlin" });
  });

  it("needs a secret key", async () => {
    const pk = await createPublishableKey(ws);
    const asPage = await pk.api("/reports/dashboard-link", {
      method: "POST",
      body: { location_uuid: location.uuid },
      headers: { origin: pk.allowedOrigins[0] ?? "" },
    });
    expect(asPage.status).toBe(403);
    const res = await exports.default.fetch(
      new Request(`${BASE}/api/public/v2/reports/dashboard-link`, {
        method: "POST",
        headers: { "content-type": "application/json", workspace: ws.id },
        body: JSON.stringify({ location_uuid: location.uuid }),
      }),
    );
    expect(res.status).toBe(401);
  });

  it("refuses bad periods on their field and unknown locations", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ from: "2026-02-30", to: "2026-03-01" }, "from"],
      [{ from: "2026-03-01", to: "03/02/2026" }, "to"],
      [{ from: "2026-03-10", to: "2026-03-09" }, "to"],
      [{ from: "2026-01-01", to: "2027-01-02" }, "to"],
    ];
    for (const [period, field] of cases) {
      const res = await link(ws.api, { location_uuid: location.uuid, ...period });
      expect(res.status, JSON.stringify(period)).toBe(422);
      expect(res.body.code).toBe("validation_failed");
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
    // 366 days (a leap year) is the most.
    const year = await link(ws.api, {
      location_uuid: location.uuid,
      from: "2028-01-01",
      to: "2028-12-31",
    });
    expect(year.status).toBe(201);
    const missing = await link(ws.api, {});
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors)).toEqual(["location_uuid"]);
    const unknown = await link(ws.api, { location_uuid: crypto.randomUUID() });
    expect(unknown.status).toBe(404);
    const other = await createWorkspace();
    const theirs = await createLocation(other);
    const foreign = await link(ws.api, { location_uuid: theirs.uuid });
    expect(foreign.status).toBe(404);
  });

  it("signs a link for 24 h naming the location, the period and the key", async () => {
    const key = await secretKey(ws);
    const before = Date.now();
    const res = await link(key.api, {
      location_uuid: location.uuid,
      from: "2026-03-01",
      to: "2026-03-31",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.url).toMatch(/^http:\/\/api\.test\/dashboard\?token=[A-Za-z0-9_-]{92}$/);
    const expires = Date.parse(res.body.expires_at);
    expect(expires).toBeGreaterThanOrEqual(Math.floor((before + 24 * HOUR) / 1000) * 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 24 * HOUR);
    expect(readDashboardToken(SECRET, tokenOf(res.body.url))).toEqual({
      workspaceId: ws.id,
      locationId: location.uuid,
      fromDay: dayOfDate("2026-03-01"),
      toDay: dayOfDate("2026-03-31"),
      expiresAt: expires,
      apiKeyId: key.id,
    });
  });

  it("covers the 30 days ending today in the location's zone by default", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      // 23:30 UTC on 1 March is already 2 March in Berlin.
      vi.setSystemTime(new Date("2026-03-01T23:30:00Z"));
      const res = await link(ws.api, { location_uuid: location.uuid });
      expect(res.status).toBe(201);
      const grant = readDashboardToken(SECRET, tokenOf(res.body.url));
      expect(grant?.toDay).toBe(dayOfDate("2026-03-02"));
      expect(grant?.fromDay).toBe(dayOfDate("2026-02-01"));
      const fromOnly = await link(ws.api, { location_uuid: location.uuid, from: "2026-01-01" });
      expect(readDashboardToken(SECRET, tokenOf(fromOnly.body.url))?.toDay).toBe(
        dayOfDate("2026-01-30"),
      );
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("GET /dashboard", () => {
  let ws: TestWorkspace;
  let location: { uuid: string };

  beforeAll(async () => {
    ws = await createWorkspace();
    location = await createLocation(ws, { name: "Main street" });
  });
  afterEach(() => vi.useRealTimers());

  it("shows the dashboard, carrying its data and no off-host URL, under a strict CSP", async () => {
    const res = await link(ws.api, {
      location_uuid: location.uuid,
      from: "2026-03-01",
      to: "2026-03-07",
    });
    const page = await open(res.body.url);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'none'");
    expect(csp).not.toMatch(/https?:|\*/);
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.html).not.toMatch(/https?:\/\/|\/\/[a-z0-9.-]+\.[a-z]{2,}\//i);
    expect(page.html).toContain('<html lang="en">');
    expect(page.html).toContain('<script type="module" src="/dashboard/dashboard.js">');
    const json = /<script type="application\/json" id="dashboard-data">([^<]*)<\/script>/.exec(
      page.html,
    );
    const data = JSON.parse(json?.[1] ?? "null");
    expect(data.revenue.dates).toEqual([
      "2026-03-01",
      "2026-03-02",
      "2026-03-03",
      "2026-03-04",
      "2026-03-05",
      "2026-03-06",
      "2026-03-07",
    ]);
    expect(data.revenue.net).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(data.currency).toBe("EUR");
    expect(page.html).toContain("Revenue by day");
    for (const id of ["revenue-chart", "utilization-chart", "no-shows-chart"])
      expect(page.html).toContain(`id="${id}"`);
    // No inline script or style the CSP would refuse: scripts only by src (and the data).
    expect(page.html).not.toMatch(/<script(?![^>]*(src=|type="application\/json"))/);
    expect(page.html).not.toMatch(/\sstyle=|<style/);
  });

  it("speaks the workspace's language and escapes names in the page", async () => {
    const created = await admin("/workspaces", {
      method: "POST",
      body: {
        name: "Salon",
        country: "DE",
        currency: "EUR",
        timezone: "Europe/Berlin",
        locale: "de",
      },
    });
    expect(created.status).toBe(201);
    const de = {
      id: created.body.uuid as string,
      api: client(created.body.uuid, created.body.api_key),
    };
    const loc = await admin(`/workspaces/${de.id}/locations`, {
      method: "POST",
      body: { name: "</script><b>Hauptstraße</b>", timezone: "Europe/Berlin" },
    });
    const res = await link(de.api, {
      location_uuid: loc.body.uuid,
      from: "2026-03-01",
      to: "2026-03-02",
    });
    const page = await open(res.body.url);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<html lang="de">');
    expect(page.html).toContain("Umsatz pro Tag");
    expect(page.html).toContain("Auslastung nach Mitarbeiter und Tag");
    expect(page.html).toContain("01.03.2026");
    expect(page.html).toContain("&lt;/script&gt;&lt;b&gt;Hauptstraße&lt;/b&gt;");
    expect(page.html).not.toContain("<b>Hauptstraße");
  });

  it("opens for 24 hours, then answers 410 with no data", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-10T08:00:00Z"));
    const res = await link(ws.api, { location_uuid: location.uuid });
    expect(res.body.expires_at).toBe("2026-03-11T08:00:00Z");
    vi.setSystemTime(new Date("2026-03-11T07:59:59Z"));
    expect((await open(res.body.url)).status).toBe(200);
    vi.setSystemTime(new Date("2026-03-11T08:00:00Z"));
    const gone = await open(res.body.url);
    expect(gone.status).toBe(410);
    expect(gone.headers.get("content-type")).toMatch(/^text\/html/);
    expect(gone.html).not.toContain("dashboard-data");
    expect(gone.html).not.toContain("/dashboard/dashboard.js");
  });

  it("refuses a tampered token, a missing one and one of another secret with 404", async () => {
    const res = await link(ws.api, { location_uuid: location.uuid });
    const token = tokenOf(res.body.url);
    const flipped = `${token.slice(0, 40)}${token[40] === "A" ? "B" : "A"}${token.slice(41)}`;
    for (const url of [
      `${BASE}/dashboard?token=${flipped}`,
      `${BASE}/dashboard?token=${token.slice(0, -1)}`,
      `${BASE}/dashboard`,
      `${BASE}/dashboard?token=${signDashboardToken("another-secret-of-16+", grantOf(res.body.url))}`,
    ]) {
      const page = await open(url);
      expect(page.status, url).toBe(404);
      expect(page.html).not.toContain("dashboard-data");
      expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    }
  });

  it("opens nothing of another workspace, and nothing once the key is revoked", async () => {
    const key = await secretKey(ws);
    const res = await link(key.api, { location_uuid: location.uuid });
    const grant = grantOf(res.body.url);
    expect((await open(res.body.url)).status).toBe(200);

    // Another workspace's key and location, named with this workspace's location: nothing.
    const other = await createWorkspace();
    const otherKey = await secretKey(other);
    const mixed = signDashboardToken(SECRET, {
      ...grant,
      workspaceId: other.id,
      apiKeyId: otherKey.id,
    });
    const crossed = await open(`${BASE}/dashboard?token=${mixed}`);
    expect(crossed.status).toBe(404);
    expect(crossed.html).not.toContain("dashboard-data");
    // This workspace's location with the other workspace's key: the key is not this workspace's.
    const borrowed = signDashboardToken(SECRET, { ...grant, apiKeyId: otherKey.id });
    expect((await open(`${BASE}/dashboard?token=${borrowed}`)).status).toBe(410);

    const revoked = await admin(`/workspaces/${ws.id}/api-keys/${key.id}`, { method: "DELETE" });
    expect(revoked.status).toBeLessThan(300);
    const after = await open(res.body.url);
    expect(after.status).toBe(410);
    expect(after.html).not.toContain("dashboard-data");
  });
});

describe("a dashboard link from rotating addresses", () => {
  it("is counted per link and per workspace, whatever address asks, before anything is read", async () => {
    const ws = await createWorkspace();
    const location = await createLocation(ws);
    const made = await link(ws.api, { location_uuid: location.uuid });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const url = new URL(made.body.url as string);
    const perLink = fakeLimiter(2);
    const perWorkspace = fakeLimiter(100);
    const app = createApp();
    let n = 0;
    const view = async () =>
      (
        await app.request(
          `${url.pathname}${url.search}`,
          { headers: { "cf-connecting-ip": `2001:db8:99:${(++n).toString(16)}::1` } },
          {
            ...env,
            LINK_RATE_LIMIT: perLink.limiter,
            LINK_WORKSPACE_RATE_LIMIT: perWorkspace.limiter,
          } satisfies OpenEnv["Bindings"],
        )
      ).status;
    expect([await view(), await view(), await view()]).toEqual([200, 200, 429]);
    expect(new Set(perLink.keys)).toEqual(new Set([`link:dashboard:${tokenOf(url.href)}`]));
    expect(new Set(perWorkspace.keys)).toEqual(new Set([`ws:${ws.id}`]));
    // A changed token is refused before it is counted: it names no link to spend.
    const changed = `${url.pathname}?token=${tokenOf(url.href).slice(0, -2)}AA`;
    const res = await app.request(changed, {}, { ...env } satisfies OpenEnv["Bindings"]);
    expect(res.status).toBe(404);
  });
});
