import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../src/index";
import { ADMIN, ADMIN_TOKEN, BASE, PUBLIC, type Received, type Sent } from "./http";
import { checkResponse } from "./contract";
import type { TestWorkspace } from "./factory";

/**
 * Bulk set-up through the Worker's own fetch handler, called in the test's
 * isolate with the pool's bindings. Same routes, validation and writes as
 * `send`, but without the pool's self-service binding (`exports.default.fetch`),
 * whose cost per call grows with every call a test file has made (hundreds of
 * milliseconds after a few hundred calls). Use it to create hundreds of
 * records; send the requests under test through `send`/`ws.api`/`admin`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function sendDirect<T = any>(path: string, sent: Sent = {}): Promise<Received<T>> {
  const headers = new Headers(sent.headers);
  let body: string | undefined = sent.rawBody;
  if (sent.body !== undefined) {
    body = JSON.stringify(sent.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`${BASE}${path}`, { method: sent.method ?? "GET", headers, body }),
    env,
    ctx,
  );
  const text = await response.text();
  await waitOnExecutionContext(ctx);
  const parsed: unknown = text ? JSON.parse(text) : null;
  // 2xx bodies must match the response schema of their operation (test/helpers/contract.ts).
  await checkResponse(sent.method ?? "GET", path, response.status, parsed);
  return { status: response.status, headers: response.headers, body: parsed as T };
}

export const adminDirect = (path: string, sent: Sent = {}) =>
  sendDirect(`${ADMIN}${path}`, {
    ...sent,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...sent.headers },
  });

/** `ws.api`, for set-up. */
export const apiDirect =
  (ws: TestWorkspace) =>
  (path: string, sent: Sent = {}) =>
    sendDirect(`${PUBLIC}${path}`, {
      ...sent,
      headers: { authorization: `Bearer ${ws.apiKey}`, workspace: ws.id, ...sent.headers },
    });
