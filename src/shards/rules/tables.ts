/**
 * What a move copies: every tenant table of a shard, parents before children
 * (D1 enforces foreign keys, so a child row copied before its parent fails),
 * each with the condition that picks one workspace's rows. Written by hand;
 * test/integration/shards-tables.test.ts compares it with the migrated schema
 * (every table listed here or in `NOT_MOVED`, every foreign key's parent
 * earlier), so a new table cannot be forgotten.
 */

/** How a table's rows of one workspace are found. */
export type Scope =
  /** The `workspaces` row itself. */
  | { kind: "id" }
  /** A `workspace_id` column. */
  | { kind: "workspace" }
  /** No workspace column: through a parent's key (`column` IN the parent's ids of the workspace). */
  | { kind: "via"; column: string; parent: string };

export interface TenantTable {
  name: string;
  scope: Scope;
  /**
   * Its integer key is a shard's own sequence (AUTOINCREMENT) that nothing
   * outside the row refers to: copied without it, the target numbers the row
   * anew (the same number may belong to another workspace there).
   */
  renumbered?: boolean;
}

const ws = (name: string, renumbered = false): TenantTable =>
  renumbered
    ? { name, scope: { kind: "workspace" }, renumbered }
    : { name, scope: { kind: "workspace" } };

/**
 * Copy order. Beyond the foreign keys, the triggers on `calendar_entries` set two
 * constraints: `calendar_spans` comes before the entries (their insert trigger then
 * finds every span already there and adds none), and the waitlist's tables after
 * them (the hold trigger, and the delete trigger when a move's clean-up deletes in
 * reverse order, then find no waiting entry and write no `waitlist_freed` row).
 */
export const MOVED_TABLES: readonly TenantTable[] = [
  { name: "workspaces", scope: { kind: "id" } },
  ws("workspace_counters"),
  ws("booking_forms"),
  ws("booking_statuses"),
  ws("notification_settings"),
  ws("categories"),
  ws("customers"),
  ws("locations"),
  ws("location_offsets"),
  ws("staffers"),
  ws("resources"),
  ws("services"),
  ws("service_locations"),
  ws("service_resources"),
  ws("service_staffers"),
  ws("staffer_date_overrides"),
  ws("staffer_locations"),
  ws("staffer_schedules"),
  ws("goods"),
  ws("good_stocks"),
  ws("accounts"),
  ws("account_transactions"),
  ws("voucher_templates"),
  ws("promocodes"),
  ws("promocode_uses"),
  ws("orders"),
  ws("order_lines"),
  ws("vouchers"),
  ws("voucher_payments"),
  ws("series"),
  ws("bookings"),
  ws("booking_services"),
  ws("booking_payments"),
  ws("payments"),
  ws("payment_checkouts"),
  ws("payment_provider_events"),
  ws("packages"),
  ws("customer_packages"),
  ws("customer_package_credits"),
  ws("package_credit_uses"),
  ws("package_renewals"),
  ws("order_checkouts"),
  ws("reservations"),
  ws("blocked_spots"),
  ws("resource_blocks"),
  ws("external_calendars"),
  ws("calendar_feeds"),
  ws("calendar_spans"),
  ws("calendar_entries"),
  ws("hold_fences"),
  ws("waitlist_entries"),
  ws("waitlist_days"),
  ws("waitlist_freed", true),
  ws("waitlist_offers", true),
  ws("messages"),
  ws("public_message_counts"),
  ws("events"),
  ws("webhooks"),
  ws("webhook_deliveries"),
  { name: "webhook_attempts", scope: { kind: "via", column: "webhook_id", parent: "webhooks" } },
  ws("idempotency_keys"),
  ws("rwg_bookings"),
  ws("rwg_token_claims"),
  // The rollups come last: the triggers that keep them skip a workspace moving in.
  ws("report_revenue_days"),
  ws("report_calendar_days"),
  ws("report_booking_days"),
];

/** Tables of the schema a move leaves where they are, and why. */
export const NOT_MOVED: Readonly<Record<string, string>> = {
  api_keys: "the directory's: keys are looked up there, wherever the workspace lives",
  rwg_partners: "the directory's: Google's Basic auth user names are looked up there",
  workspace_moves: "the directory's: the moves themselves",
  id_sequences: "the directory's: ids no two shards give out twice",
  batch_guards: "always empty: a row makes its batch fail",
  placement_fence: "always empty: a row makes its batch fail",
  d1_migrations: "each database's own migrations",
  report_day_steps: "reference numbers, the same on every database",
};

/** The table that carries webhooks' integer ids, checked for a clash before a move starts. */
export const KEPT_INTEGER_KEYS = ["webhooks"] as const;
