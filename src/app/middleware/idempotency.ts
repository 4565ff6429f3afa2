import { isWorkspaceNotHere } from "../../db/constraints";
import { createMiddleware } from "hono/factory";
import {
  dropIdempotencyKey,
  findIdempotencyKey,
  keepIdempotentResponse,
  reserveIdempotencyKey,
} from "../../tenancy/queries/idempotency-keys";
import type { PublicEnv } from "../../http/env";
import { sha256Hex } from "../../tenancy/api-keys";
import { ApiError, fieldError } from "../../platform/errors";

const TTL_MS = 24 * 3_600_000;
/**
 * How long a reservation blocks its key while its first request runs. A
 * request that died after reserving (a crashed isolate) frees the key once
 * this passes, instead of blocking retries for the whole TTL.
 */
const LEASE_MS = 60_000;
const KEY = /^[\x21-\x7e]{1,255}$/;
/** Status of a reserved key whose first request is still running. */
const PENDING = 0;

/**
 * `Idempotency-Key` on POST/PUT/PATCH: the first request with a key runs and
 * its response is kept for 24 h; a retry with the same key and body gets that
 * response back (`Idempotent-Replayed: true`) without acting again; the same
 * key with another body is a 422; a retry while the first still runs is a 409.
 * Reserving the key before the handler runs is what stops two concurrent
 * retries from both acting. Keys are kept per API key: the same key sent by
 * another API key of the workspace (a publishable key is public) is another
 * request, never a replay of this one's answer nor blocked by it.
 */
export const idempotency = createMiddleware<PublicEnv>(async (c, next) => {
  const key = c.req.header("idempotency-key");
  if (key === undefined || !["POST", "PUT", "PATCH"].includes(c.req.method)) return next();
  if (!KEY.test(key))
    throw fieldError("Idempotency-Key", "Must be 1 to 255 visible ASCII characters.");

  const scope = c.var.deps.scope;
  // The key's id as the request claims it; nothing is written before the key verified (write gate).
  const id = { apiKeyId: c.var.apiKey.id, key };
  const path = new URL(c.req.url).pathname;
  const bodyHash = await sha256Hex(`${c.req.method} ${path}\n${await c.req.text()}`);
  const now = Date.now();
  const reservation = {
    ...id,
    method: c.req.method,
    path,
    bodyHash,
    status: PENDING,
    response: "",
    createdAt: now,
    expiresAt: now + LEASE_MS,
  };
  const reserved = await reserveIdempotencyKey(scope, reservation, now);
  // Only this request's own reservation: after its lease ran out another request may own the key.
  const own = { ...id, status: PENDING, expiresAt: reservation.expiresAt };

  if (!reserved) {
    const existing = await findIdempotencyKey(scope, id);
    if (!existing || existing.bodyHash !== bodyHash) {
      throw new ApiError(
        "validation_failed",
        "This Idempotency-Key was already used with a different request.",
        {
          errors: { "Idempotency-Key": ["Already used with a different request."] },
        },
      );
    }
    if (existing.status === PENDING) {
      const wait = Math.max(1, Math.ceil((existing.expiresAt - now) / 1000));
      throw new ApiError(
        "conflict",
        "A request with this Idempotency-Key is still being processed; retry shortly.",
        { headers: { "retry-after": String(Math.min(wait, 5)) } },
      );
    }
    return c.body(existing.response, existing.status as 200, {
      "content-type": "application/json",
      "idempotent-replayed": "true",
    });
  }

  await next();
  // Server errors are not remembered: the retry should get a real second chance.
  if (c.res.status >= 500) {
    await dropIdempotencyKey(scope, own).catch(keptByMove);
    return;
  }
  await keepIdempotentResponse(scope, own, {
    status: c.res.status,
    response: await c.res.clone().text(),
    expiresAt: Date.now() + TTL_MS,
  }).catch(keptByMove);
});

/**
 * A move between shards paused the workspace's writes after the handler's own
 * batch committed: the answer is still the handler's (a 503 would invite a
 * retry of what is done). The key's reservation stays pending, copied with the
 * workspace, so a retry within its lease is told to wait rather than run again.
 */
function keptByMove(error: unknown): void {
  if (!isWorkspaceNotHere(error)) throw error;
}
