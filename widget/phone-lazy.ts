import { NetworkFailure } from "./api";
import type * as Phone from "./phone";

/**
 * The phone rules (libphonenumber-js with its full metadata, most of the widget's weight)
 * load on demand: asked for once the first step shows, so the details step never waits,
 * and a failed load is asked for again on the next try (it reads as a dropped connection).
 */
let loading: Promise<typeof Phone> | null = null;

export function phoneRules(): Promise<typeof Phone> {
  loading ??= import("./phone").catch((e: unknown) => {
    loading = null;
    throw new NetworkFailure(e instanceof Error ? e.message : String(e));
  });
  return loading;
}
