import { describe, expect, it } from "vitest";
import { createWorkspace } from "../helpers/factory";
import { ADMIN, admin, send } from "../helpers/http";

describe("GET /workspaces/{ws}", () => {
  it("returns the workspace without any key", async () => {
    const ws = await createWorkspace({ name: "Studio", country: "gb", currency: "gbp" });
    const res = await admin(`/workspaces/${ws.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      uuid: ws.id,
      name: "Studio",
      country: "GB",
      currency: "GBP",
      locale: "en",
      timezone: "Europe/Berlin",
      brand: null,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
      // A new workspace lands on one of the shards, and no move is under way.
      shard: expect.stringMatching(/^SHARD_[0-3]$/),
      move: null,
    });
  });

  it("finds the workspace whatever the case of its id", async () => {
    const ws = await createWorkspace();
    expect((await admin(`/workspaces/${ws.id.toUpperCase()}`)).status).toBe(200);
  });

  it("answers 404 for an unknown workspace and 422 for an id that is not a UUID", async () => {
    const unknown = await admin(`/workspaces/${crypto.randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: "not_found" });
    const malformed = await admin("/workspaces/nope");
    expect(malformed.status).toBe(422);
    expect(Object.keys(malformed.body.errors)).toContain("ws");
  });

  it.each([
    ["no token", {}],
    ["a wrong token", { authorization: "Bearer wrong" }],
    ["an API key", { authorization: "Bearer sk_0123456789abcdef_x" }],
  ])("answers 401 with %s", async (_, headers) => {
    const ws = await createWorkspace();
    const res = await send(`${ADMIN}/workspaces/${ws.id}`, { headers });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "unauthenticated" });
  });
});

describe("the management API document", () => {
  it("lists the provisioning calls", async () => {
    const res = await send(`${ADMIN}/openapi.json`);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        "/workspaces/{ws}",
        "/workspaces/{ws}/api-keys",
        "/workspaces/{ws}/api-keys/{key_id}",
        "/workspaces/{ws}/accounts",
        "/workspaces/{ws}/booking-statuses",
        "/workspaces/{ws}/voucher-templates",
        "/workspaces/{ws}/promocodes",
        "/workspaces/{ws}/customers",
      ]),
    );
  });
});
