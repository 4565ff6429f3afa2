import type { State } from "../state";

/**
 * `expand[]=payment_intent`, `expand[]=payment_intent.latest_charge`: each named id field
 * replaced by its object, level by level (Stripe allows four levels; so does this).
 */
export function expand<T extends object>(state: State, object: T, paths: string[]): T {
  const out: Record<string, unknown> = { ...(object as Record<string, unknown>) };
  for (const path of paths) {
    const [head = "", ...rest] = path.split(".");
    const value = out[head];
    const found = typeof value === "string" ? (state.objects.get(value) ?? value) : value;
    out[head] =
      rest.length > 0 && found && typeof found === "object"
        ? expand(state, found, [rest.join(".")])
        : found;
  }
  return out as T;
}
