/**
 * Lets a request run its first reads while its API key is still being
 * checked, and nothing else: every D1 write and every calendar call waits
 * for `pass()`, which fails with the authentication's own error. Open by
 * default (the management API, routes without a key, a key checked up front).
 */
export class WriteGate {
  private pending: Promise<unknown> = Promise.resolve();

  /** From now on, writes wait for `check` (and fail with its error). */
  hold(check: Promise<unknown>): void {
    // Nobody may be waiting when it fails; the request itself reports the error.
    check.catch(() => undefined);
    this.pending = check;
  }

  async pass(): Promise<void> {
    await this.pending;
  }
}
