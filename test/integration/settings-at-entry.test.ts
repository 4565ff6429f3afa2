import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import type { Env } from "../../src/platform/env";
import type { WebhookMessage } from "../../src/webhooks/messages";
import { BASE, PUBLIC } from "../helpers/http";

/**
 * The Worker's settings are parsed once at the entry: a deployment with a
 * malformed setting answers every request with one 500 (not only the routes
 * that read it), and takes no queue batch and no cron run, which the runtime
 * retries once it is fixed.
 */
const misconfigured = { ...env, PUBLIC_ORIGIN: "book.salon.example" } as Env;

async function get(path: string, bindings: Env) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(`${BASE}${path}`), bindings, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

describe("a malformed setting, found at the entry", () => {
  it("answers every request 500 internal_error, even one that reads no setting (the OpenAPI document)", async () => {
    expect((await get(`${PUBLIC}/openapi.json`, env)).status).toBe(200);
    const res = await get(`${PUBLIC}/openapi.json`, misconfigured);
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ code: "internal_error" });
  });

  it("takes no queue batch and no cron run", async () => {
    const batch = createMessageBatch<WebhookMessage>("salon-webhooks", []);
    expect(() => worker.queue(batch, misconfigured)).toThrow(/PUBLIC_ORIGIN/);
    const ctx = createExecutionContext();
    await expect(worker.scheduled(createScheduledController(), misconfigured, ctx)).rejects.toThrow(
      /PUBLIC_ORIGIN/,
    );
    await waitOnExecutionContext(ctx);
  });
});
