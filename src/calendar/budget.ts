import { ApiError } from "../platform/errors";

/**
 * Calendar calls one request may make for its writes. Cloudflare counts every
 * call to a Durable Object as a subrequest of the invocation, and a request
 * cut off half-way would leave holds behind for their lease; so a write is
 * planned to fit and refused up front (422 `request_too_large`) when it
 * cannot, and its retries stop where the budget ends (409).
 */
export const MAX_CALENDAR_CALLS = 100;

/** However a write retries (taking turns, another unit, fresh state), a calendar is claimed at most this often. */
export const CLAIMS_PER_CALENDAR = 2;

export const requestTooLarge = (message: string) => new ApiError("request_too_large", message);

/**
 * A request's calendar calls for writes (claims, and the release, confirm or
 * settle that ends every granted claim), counted by the write protocol in
 * `./client`, which asks before every pass whether it still fits:
 * - no calendar is claimed more than `CLAIMS_PER_CALENDAR` times;
 * - the calls made, the claims of the pass and one ending call for every
 *   claim that may be granted stay within `MAX_CALENDAR_CALLS`. Since every
 *   granted claim ends in exactly one more call, a request's write calls
 *   never pass the maximum, and never pass 2 × claims ≤ 4 × calendars.
 */
export class CalendarBudget {
  private readonly claims = new Map<string, number>();
  /** Calls made or promised (a confirm that runs after the answer is counted when promised). */
  calls = 0;
  /** Of `calls`, the confirms promised that have not started yet. */
  pending = 0;

  /** Calendars claimed so far (each at most twice). */
  get calendars(): number {
    return this.claims.size;
  }

  /**
   * Whether a pass claiming `calendarIds` fits, `holding` being the claims
   * already granted and not yet ended (each owes one call).
   */
  fits(calendarIds: readonly string[], holding: number): boolean {
    if (calendarIds.some((id) => (this.claims.get(id) ?? 0) >= CLAIMS_PER_CALENDAR)) return false;
    return this.calls + 2 * calendarIds.length + holding <= MAX_CALENDAR_CALLS;
  }

  claimed(calendarId: string): void {
    this.claims.set(calendarId, (this.claims.get(calendarId) ?? 0) + 1);
    this.calls += 1;
  }

  /** A release, confirm or settle of one calendar. */
  ended(count = 1): void {
    this.calls += count;
  }
}

const BUDGET = Symbol("calendar budget");

type WithBudget = { [BUDGET]?: CalendarBudget };

/**
 * The calendar namespace of one request, carrying the request's budget:
 * every write the request makes (and every retry of it) draws on the same one.
 */
export function budgeted<N extends object>(ns: N, budget: CalendarBudget): N {
  return new Proxy(ns, {
    get: (target, prop) => (prop === BUDGET ? budget : Reflect.get(target, prop)),
  });
}

/** The request's budget; outside a request (jobs, direct calls in tests) a fresh one per write. */
export const budgetOf = (env: { CALENDARS: object }): CalendarBudget => {
  const ns: WithBudget = env.CALENDARS;
  return ns[BUDGET] ?? new CalendarBudget();
};
