/**
 * What the fuzz knows about the data it made: ids by kind, split into the
 * fixture's own records (bookable staffers with schedules, a seller with
 * access-pos, tills at the main location…) that valid bodies prefer, and the
 * records that successful fuzz requests created since, which are used too.
 */

export type Kind =
  | "workspace"
  | "location"
  | "staffer"
  | "seller"
  | "schedulable"
  | "service"
  | "good"
  | "customer"
  | "booking"
  | "order"
  | "account"
  | "status"
  | "category_service"
  | "category_good"
  | "voucher_template"
  | "promocode"
  | "webhook"
  | "api_key"
  | "resource";

export interface Pool {
  /** Fixture records: valid bodies draw from these most of the time. */
  fixed: string[];
  /** Records created by successful fuzz requests. */
  created: string[];
  /** Records a request used up (canceled, paid, deleted): offered only when nothing else is left. */
  spent: string[];
}

export interface Tenant {
  ws: string;
  /** API keys of this tenant, used round robin so the per-key rate limit never trips. */
  keys: { id: string; key: string; used: number }[];
  pools: Record<Kind, Pool>;
}

export interface World {
  shop: Tenant;
  /** A second workspace: its ids must be "not found" through the shop's credentials. */
  foreign: Tenant;
  /** iCal tokens by booking (from `links` of rendered bookings). */
  icalTokens: Map<string, string>;
  /** Services of each booking (from `ordered_services` of rendered bookings). */
  bookingServices: Map<string, string[]>;
}

export const KINDS: Kind[] = [
  "workspace",
  "location",
  "staffer",
  "seller",
  "schedulable",
  "service",
  "good",
  "customer",
  "booking",
  "order",
  "account",
  "status",
  "category_service",
  "category_good",
  "voucher_template",
  "promocode",
  "webhook",
  "api_key",
  "resource",
];

export const emptyPools = () =>
  Object.fromEntries(
    KINDS.map((k) => [k, { fixed: [], created: [], spent: [] }]),
  ) as unknown as Record<Kind, Pool>;

/** Created records kept per kind; older ones drop out so draws stay spread over recent data. */
const MAX_CREATED = 200;

export function remember(pool: Pool, id: string) {
  if (pool.fixed.includes(id) || pool.created.includes(id)) return;
  pool.created.push(id);
  if (pool.created.length > MAX_CREATED) pool.created.shift();
}

export const allOf = (pool: Pool) => [...pool.fixed, ...pool.created];

/** A record a request used up (canceled, paid, deleted): no longer offered as valid. */
export function forget(pool: Pool, id: string) {
  pool.fixed = pool.fixed.filter((x) => x !== id);
  pool.created = pool.created.filter((x) => x !== id);
  if (!pool.spent.includes(id)) pool.spent.push(id);
  if (pool.spent.length > MAX_CREATED) pool.spent.shift();
}
