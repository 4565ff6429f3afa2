/**
 * Works around a bug of @cloudflare/vitest-pool-workers 0.15.1 (cloudflare/workers-sdk#15092,
 * fixed upstream by #15106 in a later major line): the wrapper classes it puts in front of the
 * Worker's default export and of each Durable Object class wrap their shared prototype in one
 * more `Proxy` every time an instance is made, that is on every `exports.default.fetch`, queue
 * batch, alarm and new object. After N calls each property read walks N `get` traps, so a
 * file's calls got dearer the more it had made (test/helpers/direct.ts dodged it for set-up).
 *
 * The pool builds that layer with the global `Proxy` and a `get` trap that defers unknown keys
 * to `getUnknownPrototypeKey`; such a layer over a layer of the same kind adds nothing (the same
 * trap of the same class again), so the inner one is handed back instead. Every other `Proxy`
 * is made as before. Runs in the test isolate, which is also the Worker's.
 */
const PATCHED = Symbol.for("salon.test.pool-proxy-once");
const state = globalThis as unknown as Record<symbol, boolean | undefined>;
if (!state[PATCHED]) {
  state[PATCHED] = true;
  const NativeProxy = Proxy;
  const layers = new WeakSet<object>();
  const isPoolLayer = (handler: unknown) => {
    const get = (handler as { get?: unknown } | null)?.get;
    return typeof get === "function" && String(get).includes("getUnknownPrototypeKey");
  };
  globalThis.Proxy = new NativeProxy(NativeProxy, {
    construct(target, args: [object, ProxyHandler<object>], newTarget) {
      const [inner, handler] = args;
      if (isPoolLayer(handler) && layers.has(inner)) return inner;
      const made = Reflect.construct(target, args, newTarget) as object;
      if (isPoolLayer(handler)) layers.add(made);
      return made;
    },
  });
}
