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

const meetings = new Map<string, { parties: number; arrived: number; deadline: number }>();

/**
 * Holds each caller until `parties` callers arrived (or a timeout passed),
 * when a test set up a meeting at `name`: forces the interleaving where every
 * request has read before any writes, so a race test exercises its guard on
 * every run instead of by luck. Each caller polls on its own timer: a Worker
 * may not resolve a promise that belongs to another request.
 */
export async function rendezvous(name: string): Promise<void> {
  const meeting = meetings.get(name);
  if (!meeting) return;
  meeting.arrived += 1;
  if (meeting.arrived >= meeting.parties) meetings.delete(name);
  while (meeting.arrived < meeting.parties && Date.now() < meeting.deadline) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export const failpoints = {
  /** The next `parties` passes through `rendezvous(name)` wait for each other. */
  meet(name: string, parties: number, timeoutMs = 2_000) {
    meetings.set(name, { parties, arrived: 0, deadline: Date.now() + timeoutMs });
  },
  /** Fail the next `times` passes through `name` whose detail matches. */
  arm(name: string, when: Trigger = () => true, times = 1) {
    armed.set(name, { when, times });
  },
  disarmAll() {
    armed.clear();
    meetings.clear();
  },
  /** How many times code went through `name` (armed or not): proves a path ran. */
  hits(name: string) {
    return hits.get(name) ?? 0;
  },
};
