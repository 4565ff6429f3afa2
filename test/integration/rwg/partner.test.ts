import { describe, expect, it } from "vitest";
import { admin, send } from "../../helpers/http";
import { createWorkspace } from "../../helpers/factory";
import { basic, enableRwg, googleClient, RWG } from "../../helpers/rwg";

describe("Reserve with Google: the partner's credentials", () => {
  it("answers HealthCheck with its credentials, with or without the trailing slash", async () => {
    const ws = await createWorkspace();
    const google = googleClient(await enableRwg(ws));
    expect((await google("HealthCheck")).status).toBe(200);
    const slash = await send(`${RWG}/HealthCheck/`, {
      headers: { authorization: basic(await enableRwg(ws, { username: "g-slash" })) },
    });
    expect(slash.status).toBe(200);
  });

  it("refuses a wrong password, an unknown user, no credentials and a disabled server alike (401)", async () => {
    const ws = await createWorkspace();
    const creds = await enableRwg(ws);
    const wrong = await send(`${RWG}/HealthCheck`, {
      headers: { authorization: basic({ ...creds, password: `${creds.password}x` }) },
    });
    const unknown = await send(`${RWG}/HealthCheck`, {
      headers: { authorization: basic({ ...creds, username: "nobody" }) },
    });
    const none = await send(`${RWG}/HealthCheck`);
    await enableRwg(ws, { ...creds, enabled: false });
    const disabled = await send(`${RWG}/HealthCheck`, { headers: { authorization: basic(creds) } });
    for (const r of [wrong, unknown, none, disabled]) {
      expect(r.status, JSON.stringify([r.body, [...r.headers]])).toBe(401);
      expect(r.headers.get("www-authenticate"), JSON.stringify([r.body, [...r.headers]])).toContain(
        "Basic",
      );
      expect(r.body).toMatchObject({ code: "unauthenticated" });
    }
  });

  it("keeps a user name to one workspace (409) and refuses short passwords (422)", async () => {
    const [a, b] = [await createWorkspace(), await createWorkspace()];
    await enableRwg(a, { username: "shared-name" });
    const taken = await admin(`/workspaces/${b.id}/rwg`, {
      method: "PUT",
      body: { enabled: true, username: "shared-name", password: "x".repeat(30) },
    });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: "conflict", errors: { username: expect.any(Array) } });
    const short = await admin(`/workspaces/${b.id}/rwg`, {
      method: "PUT",
      body: { enabled: true, username: "other-name", password: "short" },
    });
    expect(short.status).toBe(422);
    expect(short.body.errors).toHaveProperty("password");
    const unknownWs = await admin(`/workspaces/${crypto.randomUUID()}/rwg`, {
      method: "PUT",
      body: { enabled: true, username: "third-name", password: "x".repeat(30) },
    });
    expect(unknownWs.status).toBe(404);
  });

  it("keeps the salon's own Google partner id (digits only, else 422), none meaning the platform's", async () => {
    const ws = await createWorkspace();
    const body = { enabled: true, username: `own-${ws.id.slice(0, 8)}`, password: "x".repeat(30) };
    const own = await admin(`/workspaces/${ws.id}/rwg`, {
      method: "PUT",
      body: { ...body, partner_id: "30003" },
    });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body).toMatchObject({ enabled: true, username: body.username, partner_id: "30003" });
    for (const bad of ["partners/30003", "3x", "", "1".repeat(21), 30003]) {
      const refused = await admin(`/workspaces/${ws.id}/rwg`, {
        method: "PUT",
        body: { ...body, partner_id: bad },
      });
      expect(refused.status, JSON.stringify([bad, refused.body])).toBe(422);
      expect(refused.body.errors, JSON.stringify(bad)).toHaveProperty("partner_id");
    }
    const platform = await admin(`/workspaces/${ws.id}/rwg`, { method: "PUT", body });
    expect(platform.status).toBe(200);
    expect(platform.body).toMatchObject({ partner_id: null });
  });

  it("answers an unknown method 404 and a body that is not JSON 400", async () => {
    const ws = await createWorkspace();
    const creds = await enableRwg(ws);
    const lease = await send(`${RWG}/CreateLease`, {
      method: "POST",
      body: {},
      headers: { authorization: basic(creds) },
    });
    expect(lease.status).toBe(404);
  });
});
