import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, type TestWorkspace } from "../helpers/factory";
import { EVENT_TYPES } from "../../src/webhooks/queries/outbox";
import { BASE, d1RoundTrips, PUBLIC, send } from "../helpers/http";

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

  it.each([
    ["CR LF", "t0k3n\r\nX-Injected: 1"],
    ["LF", "a\nb"],
    ["CR", "a\rb"],
    ["NUL", "a\u0000b"],
    ["another control character", "a\u001bb"],
    ["a character above Latin-1", "5 €"],
    ["an emoji", "ok 🙂"],
  ])(
    "refuses a header value with %s: 422 on that value, on create and on PATCH",
    async (_, value) => {
      const headers = [
        { name: "X-Fine", value: "fine" },
        { name: "X-Token", value },
      ];
      const res = await create({ headers });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: "validation_failed", message: expect.any(String) });
      expect(Object.keys(res.body.errors)).toEqual(["headers.1.value"]);
      const made = await create({});
      const patched = await ws.api(`/webhooks/${made.body.id}`, {
        method: "PATCH",
        body: { headers },
      });
      expect(patched.status).toBe(422);
      expect(patched.body.errors).toHaveProperty(["headers.1.value"]);
      expect((await ws.api(`/webhooks/${made.body.id}`)).body.headers).toEqual([]);
    },
  );

  it("accepts header values with Latin-1 letters, spaces and tabs", async () => {
    const headers = [{ name: "X-Greeting", value: "Grüße aus Köln\tà bientôt" }];
    const res = await create({ headers });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.headers).toEqual(headers);
  });
});

describe("webhook request limits", () => {
  const list = (n: number, make: (i: number) => unknown) =>
    Array.from({ length: n }, (_, i) => make(i));
  const statuses = (n: number) => list(n, (i) => 200 + i).join(",");
  const emails = (n: number) => list(n, (i) => `desk${i}@salon.example`).join(",");
  const pairs = (n: number) => list(n, (i) => ({ name: `X-Item-${i}`, value: `value ${i}` }));
  const atMaximum = {
    events: [...EVENT_TYPES],
    parameters: pairs(20),
    headers: pairs(20),
    success_statuses: statuses(20),
    send_notification: true,
    emails: emails(20),
  };

  it("creates and updates a webhook with the maximum of every list", async () => {
    const res = await create(atMaximum);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      ...atMaximum,
      events: [...EVENT_TYPES],
      success_statuses: statuses(20),
      emails: emails(20),
    });
    const made = await create({});
    const patched = await ws.api(`/webhooks/${made.body.id}`, {
      method: "PATCH",
      body: atMaximum,
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject(atMaximum);
  });

  it.each([
    ["events", { events: [...EVENT_TYPES, EVENT_TYPES[0]] }],
    ["parameters", { parameters: pairs(21) }],
    ["headers", { headers: pairs(21) }],
    ["success_statuses", { success_statuses: statuses(21) }],
    ["emails", { send_notification: true, emails: emails(21) }],
  ])(
    "answers 422 for one more %s than the maximum, on create and on PATCH",
    async (field, over) => {
      const before = await ws.api("/webhooks?per_page=1");
      const res = await create({ ...atMaximum, ...over });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        message: expect.any(String),
        code: "validation_failed",
        errors: { [field]: [expect.stringMatching(/^At most \d+ /)] },
      });
      expect((await ws.api("/webhooks?per_page=1")).body.meta.total).toBe(before.body.meta.total);
      const made = await create({});
      const patched = await ws.api(`/webhooks/${made.body.id}`, { method: "PATCH", body: over });
      expect(patched.status).toBe(422);
      expect(Object.keys(patched.body.errors)).toEqual([field]);
    },
  );

  it("refuses parameters that would make the delivery URL longer than 8192 characters", async () => {
    const long = list(10, (i) => ({ name: `p${i}`, value: "ä".repeat(1000) }));
    const res = await create({ parameters: long });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ parameters: [expect.stringContaining("at most 8192")] });
    // The same parameters fit nowhere, and a long URL leaves less room for them.
    const made = await create({ parameters: long.slice(0, 1) });
    expect(made.status).toBe(201);
    const patched = await ws.api(`/webhooks/${made.body.id}`, {
      method: "PATCH",
      body: { url: `https://hooks.example.com/${"x".repeat(2000)}` },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const more = await ws.api(`/webhooks/${made.body.id}`, {
      method: "PATCH",
      body: { parameters: long.slice(0, 3) },
    });
    expect(more.status).toBe(422);
    expect(more.body.errors).toHaveProperty("parameters");
  });

  it("states the maxima in the OpenAPI document", async () => {
    const doc = (await send(`${PUBLIC}/openapi.json`)).body;
    for (const name of ["CreateWebhook", "UpdateWebhook"]) {
      const props = doc.components.schemas[name].properties;
      expect(props.events.maxItems, name).toBe(EVENT_TYPES.length);
      expect(props.parameters.maxItems, name).toBe(20);
      expect(props.headers.maxItems, name).toBe(20);
    }
  });
});
