import type { Config } from "../../platform/config";
import { log } from "../../platform/log";
import { parseRetryAfter } from "../../platform/rules/backoff";
import type { RtuRequest } from "../rules/rtu";
import { accessToken, forgetToken, TokenError } from "./token";

type Notify = NonNullable<Config["rwgNotify"]>;

/**
 * How a call to Google ended, for the queue: done; worth another try later (no answer,
 * 429, 5xx, a token Google no longer takes, no token at all); or refused for good (any other
 * 4xx of the API: the same request would be refused again, so it is logged and dropped).
 */
export type CallOutcome =
  | { kind: "done" }
  | { kind: "retry"; status: number; retryAfterSeconds: number | null }
  | { kind: "refused"; status: number; detail: string };

const retryable = (status: number) => status === 0 || status === 429 || status >= 500;

/** Sends one real-time update with the service account's token. */
export async function callGoogle(notify: Notify, request: RtuRequest): Promise<CallOutcome> {
  let token: string;
  try {
    token = await accessToken(notify.account);
  } catch (error) {
    if (!(error instanceof TokenError)) throw error;
    // No token says nothing of the update (a skewed clock's invalid_grant, a rotated key): it
    // is retried, and lands in the dead-letter queue past max_retries rather than vanishing.
    log("error", "reserve with google token request failed; update to be retried", {
      status: error.status,
      detail: error.message,
    });
    return { kind: "retry", status: error.status, retryAfterSeconds: null };
  }
  let res: Response;
  try {
    res = await fetch(`${notify.baseUrl}${request.path}`, {
      method: request.method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(request.body),
    });
  } catch {
    return { kind: "retry", status: 0, retryAfterSeconds: null };
  }
  if (res.ok) {
    await res.body?.cancel();
    return { kind: "done" };
  }
  const detail = (await res.text().catch(() => "")).slice(0, 500);
  if (res.status === 401) {
    // A token that expired early or was revoked: the next try signs in afresh.
    forgetToken(notify.account);
    return { kind: "retry", status: 401, retryAfterSeconds: null };
  }
  if (retryable(res.status)) {
    return {
      kind: "retry",
      status: res.status,
      retryAfterSeconds: parseRetryAfter(res.headers.get("retry-after"), Date.now()),
    };
  }
  return { kind: "refused", status: res.status, detail };
}
