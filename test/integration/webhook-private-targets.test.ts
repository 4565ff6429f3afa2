import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../src/index";
import { createWorkspace, type TestWorkspace } from "../helpers/factory";
import { BASE, PUBLIC } from "../helpers/http";

/**
 * Production refuses webhook targets that are not on the public Internet
 * (ALLOW_PRIVATE_WEBHOOKS is "false" there; the tests' pool sets "true", so
 * this file sends through the Worker with production's value).
 */

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await createWorkspace();
});

async function subscribe(url: string) {
  const ctx = createExecutionContext();
  const request = new Request(`${BASE}${PUBLIC}/webhooks`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${ws.apiKey}`,
      workspace: ws.id,
      "content-type": "application/json",
    },
    body: JSON.stringify({ url, events: ["booking-created"] }),
  });
  const res = await worker.fetch(request, { ...env, ALLOW_PRIVATE_WEBHOOKS: "false" }, ctx);
  const body = (await res.json()) as { error?: { code: string; fields?: unknown } };
  await waitOnExecutionContext(ctx);
  return { status: res.status, body };
}

describe("webhook targets in production", () => {
  it.each([
    "http://192.0.0.8/hook",
    "http://192.0.2.1/hook",
    "http://198.51.100.1/hook",
    "http://203.0.113.1/hook",
    "http://[2001:db8::1]/hook",
    "http://[3fff::1]/hook",
    "http://git.corp/hook",
    "http://nas.home/hook",
    "http://api.default.svc/hook",
    "http://router.lan/hook",
    "http://printer.home.arpa/hook",
    "http://wiki.intranet/hook",
    "http://vault.private/hook",
    "http://grafana.internal/hook",
    "http://box.local/hook",
    "http://app.localhost/hook",
  ])("refuses %s with 422 and writes nothing", async (url) => {
    const res = await subscribe(url);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(JSON.stringify(res.body)).toContain("Private, loopback and link-local");
  });

  it("accepts a public address and a public name", async () => {
    for (const url of ["https://1.1.1.1/hook", "https://hooks.salon-example.com/hook"]) {
      const res = await subscribe(url);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const list = await ws.api("/webhooks?per_page=100");
    expect(list.body.data.map((w: { url: string }) => w.url).toSorted()).toEqual([
      "https://1.1.1.1/hook",
      "https://hooks.salon-example.com/hook",
    ]);
  });
});
