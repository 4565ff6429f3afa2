/**
 * Named failure points for fault-injection tests (the FoundationDB / fail-rs
 * habit): production code calls `failpoint(name)` between the steps of a
 * write; it does nothing unless a test armed that name in the same isolate.
 * Nothing in a request can arm one, so they are inert in production.
 */
type Trigger = (detail: string) => boolean;

const armed = new Map<string, { when: Trigger; times: number }>();
const hits = new Map<string, number>();

export class InjectedFailure extends Error {
  constructor(name: string) {
    super(`injected failure at ${name}`);
    this.name = "InjectedFailure";
  }
}

/** Throws when a test armed `name` and its trigger matches `detail`; counts every pass. */
export function failpoint(name: string, detail = ""): void {
  hits.set(name, (hits.get(name) ?? 0) + 1);
  const point = armed.get(name);
  if (!point || !point.when(detail)) return;
  point.times -= 1;
  if (point.times <= 0) armed.delete(name);
  throw new InjectedFailure(name);
}

/** Counts a pass through `name` without ever failing: tests use it to prove which guard refused. */
export function probe(name: string): void {
  hits.set(name, (hits.get(name) ?? 0) + 1);
}

export const failpoints = {
  /** Fail the next `times` passes through `name` whose detail matches. */
  arm(name: string, when: Trigger = () => true, times = 1) {
    armed.set(name, { when, times });
  },
  disarmAll() {
    armed.clear();
  },
  /** How many times code went through `name` (armed or not): proves a path ran. */
  hits(name: string) {
    return hits.get(name) ?? 0;
  },
};
