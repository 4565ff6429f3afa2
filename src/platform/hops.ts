/**
 * Counts a request's calls to one remote service (D1, calendar objects) the
 * way latency feels them: calls in flight together are one hop, and only a
 * call that starts when none is in flight begins a new one. `durationMs` is
 * the time with at least one call in flight.
 */
export class HopCounter {
  hops = 0;
  /** Every call, in flight together or not (what a platform counts per invocation). */
  calls = 0;
  durationMs = 0;
  private inFlight = 0;
  private since = 0;

  /** Marks a call as started; the returned function marks it finished. */
  start(now = performance.now()): (end?: number) => void {
    this.calls += 1;
    if (this.inFlight++ === 0) {
      this.hops += 1;
      this.since = now;
    }
    let done = false;
    return (end = performance.now()) => {
      if (done) return;
      done = true;
      if (--this.inFlight === 0) this.durationMs += end - this.since;
    };
  }

  /** Runs `call` as one call of this service. */
  async track<T>(call: () => Promise<T>): Promise<T> {
    const finish = this.start();
    try {
      return await call();
    } finally {
      finish();
    }
  }
}
