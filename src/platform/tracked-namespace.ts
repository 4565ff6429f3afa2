import type { HopCounter } from "./hops";
import type { WriteGate } from "./write-gate";

type Method = (...args: unknown[]) => unknown;

/** A stub whose every method call waits for the gate and counts as a call of `hops`. */
function trackStub<T extends object>(stub: T, hops: HopCounter, gate: WriteGate): T {
  return new Proxy(stub, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (typeof value !== "function" || prop === "then") return value;
      // Called on the real stub: an RPC stub must be its own receiver.
      return async (...args: unknown[]) => {
        await gate.pass();
        return hops.track(async () => (target as Record<string | symbol, Method>)[prop]?.(...args));
      };
    },
  });
}

/**
 * A Durable Object namespace for one request: calls to its objects (the
 * calendars) are counted for Server-Timing like D1's, and wait for the
 * request's API key to pass (a hold is a write: no unauthenticated request
 * may claim time, even for the lease's 30 seconds).
 */
export function trackNamespace<N extends object>(ns: N, hops: HopCounter, gate: WriteGate): N {
  return new Proxy(ns, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (typeof value !== "function") return value;
      if (prop === "get" || prop === "getByName") {
        return (...args: unknown[]) =>
          trackStub((value as Method).apply(target, args) as object, hops, gate);
      }
      return (value as Method).bind(target);
    },
  });
}
