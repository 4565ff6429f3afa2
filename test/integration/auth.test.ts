import { describe, expect, it } from "vitest";
import { createWorkspace } from "../helpers/factory";
import { PUBLIC, send } from "../helpers/http";

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
    const { env } = await import("cloudflare:workers");
    const rows = await env.DB.prepare("select * from api_keys where workspace_id = ?")
      .bind(ws.id)
      .all();
    expect(JSON.stringify(rows.results)).not.toContain(ws.apiKey);
    expect(rows.results[0]).toMatchObject({ key_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });
});
