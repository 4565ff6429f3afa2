import type { State } from "../state";

/** `expand[]=payment_intent`: each named top-level id field replaced by its object. */
export function expand<T extends object>(state: State, object: T, paths: string[]): T {
  const out: Record<string, unknown> = { ...(object as Record<string, unknown>) };
  for (const path of paths) {
    const id = out[path];
    if (typeof id === "string") out[path] = state.objects.get(id) ?? id;
  }
  return out as T;
}
