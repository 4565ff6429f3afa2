import { describe, expect, it } from "vitest";
import { createWorkspace } from "../helpers/factory";
import { ADMIN, PUBLIC, send } from "../helpers/http";
import { everyShard } from "../helpers/every-shard";

describe("public API authentication", () => {
  it("accepts the workspace's own key", async () => {
    const ws = await createWorkspace();
    const res = await ws.api("/locations");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each([
    ["no headers", {}],
    ["no bearer", { workspace: "00000000-0000-4000-8000-000000000000" }],
    [
      "malformed key",
      { authorization: "Bearer nope", workspace: "00000000-0000-4000-8000-000000000000" },
    ],
    [
      "well-formed unknown key",
      {
        authorization: `Bearer sk_0123456789abcdef_${"a".repeat(43)}`,
        workspace: "00000000-0000-4000-8000-000000000000",
      },
    ],
  ])("answers 401 with the error body for %s", async (_, headers) => {
    const res = await send(`${PUBLIC}/locations`, { headers });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "unauthenticated", message: expect.any(String) });
  });

  it("answers 401 without the Workspace header", async () => {
    const ws = await createWorkspace();
    const res = await send(`${PUBLIC}/locations`, {
      headers: { authorization: `Bearer ${ws.apiKey}` },
    });
    expect(res.status).toBe(401);
  });

  it("answers 401 for a key used with another workspace, without revealing it exists", async () => {
    const a = await createWorkspace();
    const b = await createWorkspace();
    const res = await send(`${PUBLIC}/locations`, {
      headers: { authorization: `Bearer ${a.apiKey}`, workspace: b.id },
    });
    expect(res.status).toBe(401);
    const unknown = await send(`${PUBLIC}/locations`, {
      headers: {
        authorization: `Bearer ${a.apiKey}`,
        workspace: "00000000-0000-4000-8000-000000000000",
      },
    });
    expect(unknown.body).toEqual(res.body);
  });

  it("never stores the key itself", async () => {
    const ws = await createWorkspace();
    const rows = await everyShard
      .prepare("select * from api_keys where workspace_id = ?")
      .bind(ws.id)
      .all();
    expect(JSON.stringify(rows.results)).not.toContain(ws.apiKey);
    expect(rows.results[0]).toMatchObject({ key_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });
});

describe("routes without credentials are exact routes (method and path pattern)", () => {
  const booking = "00000000-0000-4000-8000-000000000000";

  it("serves the public OpenAPI document and a booking's ical link without an API key", async () => {
    const doc = await send(`${PUBLIC}/openapi.json`);
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe("3.1.0");
    // The link's token is the credential: an unknown booking is a 404, not a 401.
    const ical = await send(`${PUBLIC}/bookings/${booking}/ical?token=nope`);
    expect(ical.status).toBe(404);
    expect(ical.body).toMatchObject({ code: "not_found" });
  });

  it("asks for the API key on another method or a path that only ends like an exempt one", async () => {
    for (const [method, path] of [
      ["POST", `/bookings/${booking}/ical`],
      ["PUT", `/bookings/${booking}/ical`],
      ["POST", "/openapi.json"],
      ["DELETE", "/openapi.json"],
      ["GET", "/locations/openapi.json"],
      ["GET", "/webhooks/1/openapi.json"],
      ["GET", `/bookings/${booking}/ical/openapi.json`],
      ["GET", `/customers/${booking}/bookings/${booking}/ical`],
    ] as const) {
      const res = await send(`${PUBLIC}${path}`, {
        method,
        headers: { "idempotency-key": crypto.randomUUID() },
        ...(method === "GET" || method === "DELETE" ? {} : { body: {} }),
      });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body).toMatchObject({ code: "unauthenticated" });
    }
  });

  it("POST to the ical path with an Idempotency-Key is a 404 with a key, never a 500", async () => {
    const ws = await createWorkspace();
    const res = await ws.api(`/bookings/${booking}/ical`, {
      method: "POST",
      body: {},
      headers: { "idempotency-key": crypto.randomUUID() },
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "route_not_found" });
  });

  it("serves the management OpenAPI document without the admin token, and nothing else", async () => {
    const doc = await send(`${ADMIN}/openapi.json`);
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe("3.1.0");
    const ws = await createWorkspace();
    // An unauthenticated caller learns nothing about which workspaces exist.
    const existing = await send(`${ADMIN}/workspaces/${ws.id}/api-keys/openapi.json`, {
      method: "DELETE",
    });
    const missing = await send(`${ADMIN}/workspaces/${booking}/api-keys/openapi.json`, {
      method: "DELETE",
    });
    expect(existing.status).toBe(401);
    expect(missing.status).toBe(401);
    expect(existing.body).toEqual(missing.body);
    expect(existing.body).toMatchObject({ code: "unauthenticated" });
    for (const [method, path] of [
      ["POST", "/openapi.json"],
      ["GET", "/workspaces/openapi.json"],
    ] as const) {
      const res = await send(`${ADMIN}${path}`, {
        method,
        ...(method === "POST" ? { body: {} } : {}),
      });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });
});
