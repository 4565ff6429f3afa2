import { exports } from "cloudflare:workers";
import { checkResponse } from "./contract";

export const BASE = "http://api.test";
export const PUBLIC = "/api/public/v2";
export const ADMIN = "/api/admin/v1";
export const ADMIN_TOKEN = "test-admin-token";

export interface Sent {
  method?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface Received<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

// Response bodies are asserted field by field in tests, so they default to any.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function send<T = any>(path: string, sent: Sent = {}): Promise<Received<T>> {
  const headers = new Headers(sent.headers);
  let body: string | undefined = sent.rawBody;
  if (sent.body !== undefined) {
    body = JSON.stringify(sent.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const response = await exports.default.fetch(
    new Request(`${BASE}${path}`, { method: sent.method ?? "GET", headers, body }),
  );
  const text = await response.text();
  const parsed: unknown = text ? JSON.parse(text) : null;
  // 2xx bodies must match the response schema of their operation (test/helpers/contract.ts).
  await checkResponse(sent.method ?? "GET", path, response.status, parsed);
  return { status: response.status, headers: response.headers, body: parsed as T };
}

export const admin = (path: string, sent: Sent = {}) =>
  send(`${ADMIN}${path}`, {
    ...sent,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...sent.headers },
  });

/** A client bound to one workspace's credentials. */
export function client(workspaceId: string, apiKey: string) {
  return (path: string, sent: Sent = {}) =>
    send(`${PUBLIC}${path}`, {
      ...sent,
      headers: { authorization: `Bearer ${apiKey}`, workspace: workspaceId, ...sent.headers },
    });
}

export type Client = ReturnType<typeof client>;

/** D1 round trips reported in Server-Timing (`d1;dur=…;desc="N round trips"`). */
export function d1RoundTrips(headers: Headers): number {
  const match = /d1;dur=[\d.]+;desc="(\d+) round trips"/.exec(headers.get("server-timing") ?? "");
  if (!match?.[1])
    throw new Error(`no d1 metric in Server-Timing: ${headers.get("server-timing")}`);
  return Number(match[1]);
}
