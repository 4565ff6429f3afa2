import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, type TestWorkspace } from "../helpers/factory";
import { BASE, d1RoundTrips, PUBLIC } from "../helpers/http";

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await createWorkspace();
});

const create = (body: Record<string, unknown>) =>
  ws.api("/webhooks", {
    method: "POST",
    body: { url: "https://hooks.example.com/salon", events: ["booking-created"], ...body },
  });

describe("webhook management", () => {
  it("creates a webhook, returning the Webhook object and its secret once", async () => {
    const res = await create({
      method: "POST",
      description: "CRM sync",
      success_statuses: "200, 202",
      events: ["booking-created", "booking-canceled", "booking-created"],
      parameters: [{ name: "source", value: "salon" }],
      headers: [{ name: "X-Api-Token", value: "t0k3n" }],
      tries: 4,
      timeout: 5,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      url: "https://hooks.example.com/salon",
      method: "post",
      description: "CRM sync",
      success_statuses: "200,202",
      status: "enabled",
      send_notification: false,
      emails: "",
      events: ["booking-created", "booking-canceled"],
      parameters: [{ name: "source", value: "salon" }],
      headers: [{ name: "X-Api-Token", value: "t0k3n" }],
      tries: 4,
      timeout: 5,
    });
    expect(Number.isInteger(res.body.id)).toBe(true);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const got = await ws.api(`/webhooks/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty("secret");
    const { secret: _secret, ...shown } = res.body;
    expect(got.body).toEqual(shown);
  });

  it("fills defaults", async () => {
    const res = await create({});
    expect(res.body).toMatchObject({
      method: "post",
      success_statuses: "200,201,202,204",
      tries: 5,
      timeout: 10,
      parameters: [],
      headers: [],
    });
  });

  it.each([
    [{ url: "ftp://example.com/x" }, "url"],
    [{ url: "not a url" }, "url"],
    [{ url: "https://user:pw@example.com/" }, "url"],
    [{ url: undefined }, "url"],
    [{ events: [] }, "events"],
    [{ events: ["booking-exploded"] }, "events.0"],
    [{ method: "TRACE" }, "method"],
    [{ tries: 0 }, "tries"],
    [{ tries: 11 }, "tries"],
    [{ timeout: 31 }, "timeout"],
    [{ timeout: 1.5 }, "timeout"],
    [{ success_statuses: "ok" }, "success_statuses"],
    [{ success_statuses: "200,700" }, "success_statuses"],
    [{ headers: [{ name: "Webhook-Signature", value: "x" }] }, "headers.0.name"],
    [{ headers: [{ name: "bad header", value: "x" }] }, "headers.0.name"],
    [{ send_notification: true }, "emails"],
    [{ send_notification: true, emails: "owner@salon.de, nope" }, "emails"],
    [{ description: "x".repeat(1001) }, "description"],
  ])("refuses %j with 422 on %s", async (body, field) => {
    const res = await create(body);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.errors).toHaveProperty([field]);
  });

  it("updates some fields with PATCH and keeps the rest", async () => {
    const made = await create({ description: "before", tries: 2 });
    const res = await ws.api(`/webhooks/${made.body.id}`, {
      method: "PATCH",
      body: {
        description: "after",
        events: ["order-paid"],
        send_notification: true,
        emails: "a@b.de",
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      description: "after",
      events: ["order-paid"],
      tries: 2,
      send_notification: true,
      emails: "a@b.de",
    });
    const bad = await ws.api(`/webhooks/${made.body.id}`, {
      method: "PATCH",
      body: { url: "gopher://x" },
    });
    expect(bad.status).toBe(422);
    expect((await ws.api(`/webhooks/${made.body.id}`)).body.description).toBe("after");
  });

  it("disables and enables", async () => {
    const made = await create({});
    const off = await ws.api(`/webhooks/${made.body.id}/disable`, { method: "POST" });
    expect(off.status).toBe(200);
    expect(off.body.status).toBe("disabled");
    const on = await ws.api(`/webhooks/${made.body.id}/enable`, { method: "POST" });
    expect(on.status).toBe(200);
    expect(on.body.status).toBe("enabled");
  });

  it("rotates the secret", async () => {
    const made = await create({});
    const res = await ws.api(`/webhooks/${made.body.id}/rotate-secret`, { method: "POST" });
    expect(res.status).toBe(200);
    expect(res.body.secret).toMatch(/^whsec_/);
    expect(res.body.secret).not.toBe(made.body.secret);
  });

  it("deletes with 204 and an empty body; the webhook is gone", async () => {
    const made = await create({});
    const response = await exports.default.fetch(
      new Request(`${BASE}${PUBLIC}/webhooks/${made.body.id}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${ws.apiKey}`, workspace: ws.id },
      }),
    );
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect((await ws.api(`/webhooks/${made.body.id}`)).status).toBe(404);
    expect((await ws.api(`/webhooks/${made.body.id}/deliveries`)).status).toBe(404);
    expect((await ws.api(`/webhooks/${made.body.id}`, { method: "DELETE" })).status).toBe(404);
  });

  it("lists with the pagination envelope in one D1 round trip", async () => {
    const other = await createWorkspace();
    for (let i = 0; i < 3; i++)
      await other.api("/webhooks", {
        method: "POST",
        body: { url: `https://example.com/${i}`, events: ["order-paid"] },
      });
    const res = await other.api("/webhooks?per_page=2");
    expect(res.status).toBe(200);
    expect(res.body.data.map((w: { url: string }) => w.url)).toEqual([
      "https://example.com/0",
      "https://example.com/1",
    ]);
    expect(res.body.meta).toMatchObject({ total: 3, last_page: 2, per_page: 2 });
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(2);
    expect((await other.api("/webhooks?per_page=0")).status).toBe(422);
  });

  it("hides another workspace's webhooks behind 404", async () => {
    const made = await create({});
    const stranger = await createWorkspace();
    for (const [method, path] of [
      ["GET", ""],
      ["PATCH", ""],
      ["DELETE", ""],
      ["POST", "/enable"],
      ["POST", "/disable"],
      ["POST", "/rotate-secret"],
      ["GET", "/deliveries"],
    ] as const) {
      const res = await stranger.api(`/webhooks/${made.body.id}${path}`, {
        method,
        ...(method === "PATCH" ? { body: { description: "mine now" } } : {}),
      });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await ws.api(`/webhooks/${made.body.id}`)).body.status).toBe("enabled");
  });

  it("answers 422 for an id that is not an integer", async () => {
    for (const id of ["abc", "0", "-1", "1.5"]) {
      const res = await ws.api(`/webhooks/${id}`);
      expect(res.status, id).toBe(422);
      expect(res.body.errors).toHaveProperty("webhook_id");
    }
  });
});
