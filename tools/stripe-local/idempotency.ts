import { StripeError } from "./errors";

/** A stored answer to replay. */
export interface StoredAnswer {
  status: number;
  body: unknown;
}

interface Entry {
  fingerprint: string;
  answer: StoredAnswer | null;
}

/**
 * Stripe's Idempotency-Key: the first request's answer is kept and replayed for the same key,
 * path and parameters; other parameters are an idempotency_error; a request arriving while
 * the first is still running is a 409. Only operations that started are kept: a request that
 * failed validation or an injected "before" fault leaves the key free.
 */
export class IdempotencyKeys {
  private readonly entries = new Map<string, Entry>();

  /** The stored answer to replay, or null once the key is reserved for this request. */
  begin(key: string, method: string, path: string, params: unknown): StoredAnswer | null {
    const fingerprint = `${method} ${path} ${stableJson(params)}`;
    const entry = this.entries.get(key);
    if (!entry) {
      this.entries.set(key, { fingerprint, answer: null });
      return null;
    }
    if (entry.fingerprint !== fingerprint) {
      throw new StripeError(400, {
        type: "idempotency_error",
        message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
      });
    }
    if (!entry.answer) {
      throw new StripeError(409, {
        type: "idempotency_error",
        code: "idempotency_key_in_use",
        message: `There is currently another in-progress request using this Idempotency-Key (that probably means you submitted twice, and the other request is still going through): ${key}. Please try again later.`,
      });
    }
    return entry.answer;
  }

  finish(key: string, answer: StoredAnswer) {
    const entry = this.entries.get(key);
    if (entry) entry.answer = answer;
  }

  /** Frees a key whose request never started (validation failure, a "before" fault). */
  release(key: string) {
    const entry = this.entries.get(key);
    if (entry && !entry.answer) this.entries.delete(key);
  }
}

/** JSON with object keys sorted, so that parameter order does not matter. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
