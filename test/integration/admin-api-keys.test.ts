import { describe, expect, it } from "vitest";
import { rowCount } from "../helpers/db";
import { createWorkspace } from "../helpers/factory";
import { ADMIN, admin, client, send } from "../helpers/http";
import { everyShard } from "../helpers/every-shard";

const keyCount = (workspaceId: string) => rowCount("api_keys", workspaceId);

const issue = (workspaceId: string) =>
  admin(`/workspaces/${workspaceId}/api-keys`, { method: "POST" });

const revoke = (workspaceId: string, keyId: string) =>
  admin(`/workspaces/${workspaceId}/api-keys/${keyId}`, { method: "DELETE" });

describe("POST /workspaces/{ws}/api-keys", () => {
  it("issues a working key shown once, next to the existing one", async () => {
    const ws = await createWorkspace();
    const res = await issue(ws.id);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{16}$/),
      kind: "secret",
      api_key: expect.stringMatching(/^sk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/),
      allowed_origins: [],
    });
    expect(res.body.api_key).toContain(res.body.id);
    expect((await client(ws.id, res.body.api_key)("/locations")).status).toBe(200);
    expect((await ws.api("/locations")).status).toBe(200);
    expect(await keyCount(ws.id)).toBe(2);
  });

  it("accepts an empty JSON body too", async () => {
    const ws = await createWorkspace();
    const res = await admin(`/workspaces/${ws.id}/api-keys`, { method: "POST", body: {} });
    expect(res.status).toBe(201);
  });

  it("answers 404 for an unknown workspace and stores nothing", async () => {
    const id = crypto.randomUUID();
    const res = await issue(id);
    expect(res.status).toBe(404);
    expect(await keyCount(id)).toBe(0);
  });

  it.each([
    ["no token", {}],
    ["a wrong token", { authorization: "Bearer wrong" }],
  ])("answers 401 with %s and stores nothing", async (_, headers) => {
    const ws = await createWorkspace();
    const res = await send(`${ADMIN}/workspaces/${ws.id}/api-keys`, { method: "POST", headers });
    expect(res.status).toBe(401);
    expect(await keyCount(ws.id)).toBe(1);
  });
});

describe("DELETE /workspaces/{ws}/api-keys/{key_id}", () => {
  it("revokes the key: 204 without a body, then the key gets 401 and others keep working", async () => {
    const ws = await createWorkspace();
    const second = await issue(ws.id);
    const api = client(ws.id, second.body.api_key);
    expect((await api("/locations")).status).toBe(200);

    const res = await revoke(ws.id, second.body.id);
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();

    const refused = await api("/locations");
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: "unauthenticated" });
    expect((await ws.api("/locations")).status).toBe(200);
    // Kept for the record, marked revoked.
    const row = await everyShard
      .prepare("select revoked_at from api_keys where id = ?")
      .bind(second.body.id)
      .first<{ revoked_at: number | null }>();
    expect(row?.revoked_at).toEqual(expect.any(Number));
  });

  it("can revoke the workspace's first key", async () => {
    const ws = await createWorkspace();
    const [, id] = /^sk_([0-9a-f]{16})_/.exec(ws.apiKey) ?? [];
    expect((await revoke(ws.id, id ?? "")).status).toBe(204);
    expect((await ws.api("/locations")).status).toBe(401);
  });

  it("answers 404 when the key is already revoked", async () => {
    const ws = await createWorkspace();
    const key = await issue(ws.id);
    expect((await revoke(ws.id, key.body.id)).status).toBe(204);
    const again = await revoke(ws.id, key.body.id);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ code: "not_found", message: "API key not found." });
  });

  it("answers 404 for an unknown key id", async () => {
    const ws = await createWorkspace();
    expect((await revoke(ws.id, "0123456789abcdef")).status).toBe(404);
    expect((await revoke(ws.id, "not-a-key")).status).toBe(404);
  });

  it("answers 404 for another workspace's key and leaves that key working", async () => {
    const a = await createWorkspace();
    const b = await createWorkspace();
    const key = await issue(b.id);
    const res = await revoke(a.id, key.body.id);
    expect(res.status).toBe(404);
    expect((await client(b.id, key.body.api_key)("/locations")).status).toBe(200);
  });

  it("answers 404 for an unknown workspace", async () => {
    const ws = await createWorkspace();
    const key = await issue(ws.id);
    const res = await revoke(crypto.randomUUID(), key.body.id);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("Workspace not found.");
    expect((await client(ws.id, key.body.api_key)("/locations")).status).toBe(200);
  });

  it.each([
    ["no token", {}],
    ["a wrong token", { authorization: "Bearer wrong" }],
  ])("answers 401 with %s and revokes nothing", async (_, headers) => {
    const ws = await createWorkspace();
    const key = await issue(ws.id);
    const res = await send(`${ADMIN}/workspaces/${ws.id}/api-keys/${key.body.id}`, {
      method: "DELETE",
      headers,
    });
    expect(res.status).toBe(401);
    expect((await client(ws.id, key.body.api_key)("/locations")).status).toBe(200);
  });
});
