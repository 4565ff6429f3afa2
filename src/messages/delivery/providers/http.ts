import { parseRetryAfter } from "../../../platform/rules/backoff";
import { clip, PROVIDER_TIMEOUT_MS, type SendResult } from "./types";

export interface ProviderAnswer {
  status: number;
  json: unknown;
  retryAfterSeconds: number | null;
}

/**
 * One request to a provider's API, bounded by PROVIDER_TIMEOUT_MS. A network
 * error or a timeout is a retryable failure (the provider may or may not have
 * taken the message: docs/messages-delivery.md, "Exactly once").
 */
export async function callProvider(
  provider: string,
  url: string,
  init: { headers: Record<string, string>; body: string },
): Promise<ProviderAnswer | Extract<SendResult, { ok: false }>> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: init.headers,
      body: init.body,
      redirect: "manual",
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    });
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return {
      status: response.status,
      json,
      retryAfterSeconds: parseRetryAfter(response.headers.get("retry-after"), Date.now()),
    };
  } catch (e) {
    const timedOut = e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError");
    return {
      ok: false,
      retryable: true,
      error: clip(
        timedOut
          ? `${provider}: no answer within ${PROVIDER_TIMEOUT_MS / 1000} s`
          : `${provider}: ${e instanceof Error ? e.message : String(e)}`,
      ),
      retryAfterSeconds: null,
    };
  }
}

/** 429 and 5xx may pass on a later try; any other refusal is about the message itself. */
export const retryableStatus = (status: number) => status === 429 || status >= 500;

export const isAnswer = (a: ProviderAnswer | SendResult): a is ProviderAnswer => "status" in a;

/** A string field of a provider's JSON answer, if it is one. */
export function field(json: unknown, name: string): string | null {
  if (json === null || typeof json !== "object") return null;
  const value = (json as Record<string, unknown>)[name];
  return typeof value === "string" || typeof value === "number" ? String(value) : null;
}
