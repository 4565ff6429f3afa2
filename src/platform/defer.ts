/**
 * Runs a task once the answer is ready, without making the answer wait for
 * it (a request's `waitUntil`).
 */
export type Defer = (task: () => Promise<unknown>) => void;

/** Without a request to answer first (tests, background jobs): start it now, wait for nothing. */
export const runAlongside: Defer = (task) => {
  task().catch(() => undefined);
};
