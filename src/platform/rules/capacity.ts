/**
 * The largest capacity of a group service (seats of one session). A bound of the request
 * fields (seats, a service's capacity) as much as of the session engine, so it sits below both.
 */
export const MAX_CAPACITY = 100;
