import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app/app";
import { type Doc, type Operation, operationsOf } from "../fuzz/lib/schema";
import { sendDirect } from "../helpers/direct";
import { createWorkspace, type TestWorkspace } from "../helpers/factory";
import { admin, BASE, PUBLIC } from "../helpers/http";
import { createPublishableKey, type PublishableKey } from "../helpers/keys";
import { fakeLimiter } from "../helpers/limiter";
import { everyShard } from "../helpers/every-shard";

/**
 * The publishable scope, written down here independently of src/: what a
 * booking widget needs. Operations that do not exist yet in the document are
 * simply absent from the walk below.
 */
const ALLOWED = new Set([
  "GET public:/locations",
  "GET public:/services",
  "GET public:/services/{service_uuid}",
  "GET public:/staffers",
  "GET public:/resources",
  "GET public:/booking-form",
  // The salon's name, language, currency and brand for the widget's header.
  "GET public:/workspace",
  "GET public:/locations/{location_uuid}/time-slots",
  "POST public:/locations/{location_uuid}/time-slots/cart",
  "POST public:/locations/{location_uuid}/time-slots/cart/next",
  "POST public:/reservations",
  "GET public:/reservations/{reservation_uuid}",
  "DELETE public:/reservations/{reservation_uuid}",
  // Paying for a held reservation on the provider's hosted page.
  "POST public:/reservations/{reservation_uuid}/checkout",
  "POST public:/bookings",
  "POST public:/bookings/cart",
  "GET public:/bookings/{booking_uuid}",
  "PUT public:/bookings/{booking_uuid}/status/cancel",
  "PUT public:/bookings/{booking_uuid}/reschedule",
  // The waitlist: a widget joins it, and deletes the entries it made.
  "POST public:/waitlist",
  "DELETE public:/waitlist/{entry_uuid}",
  // A returning customer's package, reduced to what booking with it needs (no customer data).
  "GET public:/customer-packages/{customer_package_uuid}",
]);
/** No key at all: the document and a booking's iCal link. */
/** Operations that take no key at all: their credential is a token in the path or query. */
const OPEN = new Set([
  "GET public:/openapi.json",
  "GET public:/bookings/{booking_uuid}/ical",
  "GET public:/manage/{token}",
  "GET public:/manage/{token}/time-slots",
  "POST public:/manage/{token}/cancel",
  "POST public:/manage/{token}/reschedule",
  "GET public:/feeds/{feed_file}",
  "GET public:/waitlist-offers/{token}",
  "POST public:/waitlist-offers/{token}/book",
]);

/** Parameter names differ between spellings of one path; the scope compares shapes. */
const shape = (key: string) => key.replace(/\{[^}]+\}/g, "{}");
const allowedShapes = new Set([...ALLOWED].map(shape));

const SITE = "https://salon.example";

let ws: TestWorkspace;
let pk: PublishableKey;
let doc: Doc;

beforeAll(async () => {
  ws = await createWorkspace();
  pk = await createPublishableKey(ws, [SITE, "http://localhost:3000/"]);
  doc = (await sendDirect(`${PUBLIC}/openapi.json`)).body as Doc;
});

const urlOf = (op: Operation) =>
  `${PUBLIC}${op.path.replace(/\{[^}]+\}/g, () => crypto.randomUUID())}`;

const apiKeyRows = async (workspaceId: string) =>
  (
    await everyShard
      .prepare("SELECT count(*) AS n FROM api_keys WHERE workspace_id = ?")
      .bind(workspaceId)
      .first<{ n: number }>()
  )?.n;

describe("issuing publishable keys (management API)", () => {
  it("issues a secret key without a body, and a publishable key with normalised origins", async () => {
    const secret = await admin(`/workspaces/${ws.id}/api-keys`, { method: "POST" });
    expect(secret.status).toBe(201);
    expect(secret.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{16}$/),
      kind: "secret",
      api_key: expect.stringMatching(/^sk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/),
      allowed_origins: [],
    });
    expect(pk.key).toMatch(/^pk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    // Trailing slash dropped, repeats folded.
    expect(pk.allowedOrigins).toEqual([SITE, "http://localhost:3000"]);
    const again = await admin(`/workspaces/${ws.id}/api-keys`, {
      method: "POST",
      body: { kind: "publishable", allowed_origins: ["HTTPS://Salon.Example:443", SITE] },
    });
    expect(again.body.allowed_origins).toEqual([SITE]);
  });

  it("accepts 20 origins and refuses 21, bad origins and mixed kinds with 422 and no row", async () => {
    const other = await createWorkspace();
    const origins = (n: number) => Array.from({ length: n }, (_, i) => `https://s${i}.example`);
    const ok = await admin(`/workspaces/${other.id}/api-keys`, {
      method: "POST",
      body: { kind: "publishable", allowed_origins: origins(20) },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.allowed_origins).toHaveLength(20);
    const before = await apiKeyRows(other.id);
    const cases: [unknown, string][] = [
      [{ kind: "publishable", allowed_origins: origins(21) }, "allowed_origins"],
      [{ kind: "publishable" }, "allowed_origins"],
      [{ kind: "publishable", allowed_origins: [] }, "allowed_origins"],
      [
        { kind: "publishable", allowed_origins: [SITE, "https://salon.example/book"] },
        "allowed_origins.1",
      ],
      [{ kind: "publishable", allowed_origins: ["salon.example"] }, "allowed_origins.0"],
      [
        { kind: "publishable", allowed_origins: ["https://salon.example?x=1"] },
        "allowed_origins.0",
      ],
      [{ kind: "publishable", allowed_origins: ["ftp://salon.example"] }, "allowed_origins.0"],
      [{ kind: "secret", allowed_origins: [SITE] }, "allowed_origins"],
      [{ kind: "public" }, "kind"],
    ];
    for (const [body, field] of cases) {
      const res = await admin(`/workspaces/${other.id}/api-keys`, { method: "POST", body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe("validation_failed");
      expect(Object.keys(res.body.errors), JSON.stringify(body)).toContain(field);
    }
    expect(await apiKeyRows(other.id)).toBe(before);
    const unknown = await admin(`/workspaces/${crypto.randomUUID()}/api-keys`, {
      method: "POST",
      body: { kind: "publishable", allowed_origins: [SITE] },
    });
    expect(unknown.status).toBe(404);
  });

  it("refuses a revoked publishable key and a key whose prefix was changed", async () => {
    const key = await createPublishableKey(ws);
    expect((await key.api("/services")).status).toBe(200);
    const forged = key.key.replace(/^pk_/, "sk_");
    const asSecret = await sendDirect(`${PUBLIC}/services`, {
      headers: { authorization: `Bearer ${forged}`, workspace: ws.id },
    });
    expect(asSecret.status).toBe(401);
    expect(
      (await admin(`/workspaces/${ws.id}/api-keys/${key.id}`, { method: "DELETE" })).status,
    ).toBe(204);
    expect((await key.api("/services")).status).toBe(401);
  });
});

describe("the publishable scope", () => {
  it("walks every public operation: allowed ones are never 403, all others are 403 forbidden", async () => {
    const ops = operationsOf("public", doc).filter((op) => !OPEN.has(op.key));
    expect(ops.length).toBeGreaterThan(30);
    const wrong: string[] = [];
    let allowedSeen = 0;
    for (const op of ops) {
      const res = await sendDirect(urlOf(op), {
        method: op.method,
        headers: { authorization: `Bearer ${pk.key}`, workspace: ws.id },
        ...(op.body ? { body: {} } : {}),
      });
      if (allowedShapes.has(shape(op.key))) {
        allowedSeen++;
        if (res.status === 403 || res.status === 401 || res.status >= 500)
          wrong.push(`${op.key} allowed but ${res.status} ${JSON.stringify(res.body)}`);
      } else if (res.status !== 403 || res.body?.code !== "forbidden") {
        wrong.push(`${op.key} should be 403 forbidden, got ${res.status}`);
      }
      // The document says so too.
      if (!op.responses.has(403)) wrong.push(`${op.key} does not document 403`);
    }
    expect(wrong).toEqual([]);
    // The walk covered the widget's operations that exist today.
    expect(allowedSeen).toBeGreaterThanOrEqual(12);
  });

  it("a refused call writes nothing: no service, no webhook", async () => {
    const service = await pk.api("/services", {
      method: "POST",
      body: { name: "Sneaky", duration: 30, price: 100 },
    });
    expect(service.status).toBe(403);
    expect(service.body).toEqual({
      message: expect.stringContaining("publishable key"),
      code: "forbidden",
    });
    const list = await ws.api("/services");
    expect(list.body.data.map((s: { name: string }) => s.name)).not.toContain("Sneaky");
  });
});

describe("CORS", () => {
  const preflight = (path: string, origin = SITE) =>
    sendDirect(path, {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, workspace, content-type",
      },
    });

  it("answers a preflight on any public path with 204, the origin echoed, and no key", async () => {
    for (const path of [`${PUBLIC}/bookings`, `${PUBLIC}/customers`, `${PUBLIC}/no-such-thing`]) {
      const res = await preflight(path, "https://anywhere.example");
      expect(res.status, path).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe("https://anywhere.example");
      expect(res.headers.get("access-control-allow-methods")).toBe("GET,POST,PUT,PATCH,DELETE");
      expect(res.headers.get("access-control-allow-headers")).toBe(
        "Authorization,Workspace,Content-Type,Idempotency-Key,D1-Bookmark",
      );
      expect(res.headers.get("access-control-max-age")).toBe("600");
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    }
  });

  it("echoes an allowed origin on real responses to a publishable key, errors included", async () => {
    const ok = await pk.api("/services", { headers: { origin: SITE } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe(SITE);
    expect(ok.headers.get("vary")).toContain("Origin");
    expect(ok.headers.get("access-control-expose-headers")).toContain("Retry-After");
    // A widget must be able to read a 404 or a 422 too.
    const missing = await pk.api(`/bookings/${crypto.randomUUID()}`, { headers: { origin: SITE } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("access-control-allow-origin")).toBe(SITE);
    const forbidden = await pk.api("/customers", { headers: { origin: SITE } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get("access-control-allow-origin")).toBe(SITE);
  });

  it("refuses a foreign origin with 403 origin_not_allowed and no CORS header", async () => {
    for (const origin of [
      "https://evil.example",
      "http://salon.example",
      "https://salon.example:8443",
    ]) {
      const res = await pk.api("/services", { headers: { origin } });
      expect(res.status, origin).toBe(403);
      expect(res.body).toEqual({ message: expect.any(String), code: "origin_not_allowed" });
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
    }
  });

  it("lets the Worker's own pages (the widget) and non-browser clients use a publishable key", async () => {
    const own = await pk.api("/services", { headers: { origin: BASE } });
    expect(own.status).toBe(200);
    const server = await pk.api("/services");
    expect(server.status).toBe(200);
    expect(server.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("never sends CORS headers to a secret key, whatever the origin", async () => {
    for (const path of ["/services", "/customers", `/bookings/${crypto.randomUUID()}`]) {
      const res = await ws.api(path, { headers: { origin: SITE } });
      expect(res.status).not.toBe(403);
      expect(res.headers.get("access-control-allow-origin"), path).toBeNull();
      expect(res.headers.get("access-control-expose-headers"), path).toBeNull();
    }
  });
});

describe("publishable rate limits", () => {
  it("counts a publishable key per key and per client address, apart from secret keys", async () => {
    const perKey = fakeLimiter(1000);
    const perClient = fakeLimiter(3);
    const secret = fakeLimiter(1000);
    const app = createApp();
    const bindings = {
      ...env,
      API_RATE_LIMIT: secret.limiter,
      PUBLISHABLE_KEY_RATE_LIMIT: perKey.limiter,
      PUBLISHABLE_CLIENT_RATE_LIMIT: perClient.limiter,
    };
    const call = (key: string, ip: string) =>
      app.request(
        `${PUBLIC}/services`,
        { headers: { authorization: `Bearer ${key}`, workspace: ws.id, "cf-connecting-ip": ip } },
        bindings,
      );
    const first = await Promise.all([1, 2, 3, 4].map(() => call(pk.key, "203.0.113.1")));
    expect(first.map((r) => r.status)).toEqual(expect.arrayContaining([200, 200, 200, 429]));
    // Another visitor of the same site still gets through.
    expect((await call(pk.key, "203.0.113.2")).status).toBe(200);
    // The secret key never touched the publishable limiters, and vice versa.
    expect((await call(ws.apiKey, "203.0.113.1")).status).toBe(200);
    expect(secret.keys).toEqual([expect.stringMatching(/^key:/)]);
    expect(perKey.keys.every((k) => k === `pk:${pk.id}`)).toBe(true);
    expect(new Set(perClient.keys)).toEqual(
      new Set([`pk:${pk.id}:ip:203.0.113.1`, `pk:${pk.id}:ip:203.0.113.2`]),
    );
  });
});
