import { WorkerEntrypoint } from "cloudflare:workers";
import type { Env } from "../platform/env";

/** One delivery request as it goes on the wire (plain data, so it crosses an RPC call). */
export interface WireRequest {
  url: string;
  method: string;
  headers: [string, string][];
  body: string | undefined;
  timeoutSeconds: number;
}

/** What the receiver answered, or why there was no answer. */
export type WireResult =
  | { kind: "answered"; status: number; retryAfter: string | null }
  | { kind: "timed-out" }
  | { kind: "failed"; error: string };

export const messageOf = (e: unknown) => String(e instanceof Error ? e.message : e);

/**
 * Sends one delivery in an invocation of its own (the consumer reaches it
 * through the Worker's loopback binding, `exports.WebhookSender`). workerd
 * fails the whole invocation when a request with a body cannot reach its
 * host (a DNS failure under `wrangler dev`, say), even though the fetch's
 * rejection is caught: in the consumer's invocation that would fail and
 * redeliver every message of the batch. Here only this call fails, and the
 * consumer counts it as one failed attempt.
 */
export class WebhookSender extends WorkerEntrypoint<Env> {
  async send(request: WireRequest): Promise<WireResult> {
    return sendOnWire(request);
  }
}

/** The request itself; never throws. */
export async function sendOnWire(request: WireRequest): Promise<WireResult> {
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      // A redirect could lead to an address the URL check would have refused.
      redirect: "manual",
      signal: AbortSignal.timeout(request.timeoutSeconds * 1000),
    });
    // The body is not needed; cancelling it frees the connection.
    await response.body?.cancel();
    return {
      kind: "answered",
      status: response.status,
      retryAfter: response.headers.get("retry-after"),
    };
  } catch (e) {
    const timedOut = e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError");
    return timedOut ? { kind: "timed-out" } : { kind: "failed", error: messageOf(e) };
  }
}
