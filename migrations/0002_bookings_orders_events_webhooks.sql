CREATE TABLE `booking_services` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`booking_id` text NOT NULL,
	`service_id` text NOT NULL,
	`staffer_id` text NOT NULL,
	`position` integer NOT NULL,
	`name` text NOT NULL,
	`reserved_on` integer NOT NULL,
	`reserved_until` integer NOT NULL,
	`duration` integer NOT NULL,
	`original_duration` integer NOT NULL,
	`buffer` integer DEFAULT 0 NOT NULL,
	`quantity` integer DEFAULT 1 NOT NULL,
	`price` integer NOT NULL,
	`original_price` integer NOT NULL,
	`tax_name` text,
	`tax_rate_bp` integer,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`staffer_id`) REFERENCES `staffers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `booking_services_booking_idx` ON `booking_services` (`booking_id`);--> statement-breakpoint
CREATE INDEX `booking_services_staffer_idx` ON `booking_services` (`staffer_id`,`reserved_on`);--> statement-breakpoint
CREATE TABLE `bookings` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`location_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`order_id` text NOT NULL,
	`status_id` text NOT NULL,
	`start_at` integer NOT NULL,
	`end_at` integer NOT NULL,
	`timezone` text NOT NULL,
	`quantity` integer DEFAULT 1 NOT NULL,
	`slots_count` integer DEFAULT 1 NOT NULL,
	`is_canceled` integer DEFAULT false NOT NULL,
	`is_completed` integer DEFAULT false NOT NULL,
	`cancel_reason` text,
	`canceled_by` text,
	`canceled_at` integer,
	`completed_at` integer,
	`completed_by` text,
	`public_notes` text DEFAULT '' NOT NULL,
	`internal_notes` text,
	`source` text DEFAULT 'unknown' NOT NULL,
	`customer_browser_tz` text,
	`customer_browser_language` text,
	`booking_callback` integer DEFAULT false NOT NULL,
	`google_meet_guest_emails` text,
	`notify_on_reschedule` integer,
	`ical_token` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`status_id`) REFERENCES `booking_statuses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `bookings_workspace_start_idx` ON `bookings` (`workspace_id`,`start_at`);--> statement-breakpoint
CREATE INDEX `bookings_workspace_created_idx` ON `bookings` (`workspace_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `bookings_customer_idx` ON `bookings` (`customer_id`);--> statement-breakpoint
CREATE INDEX `bookings_order_idx` ON `bookings` (`order_id`);--> statement-breakpoint
CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`type` text NOT NULL,
	`payload` text NOT NULL,
	`created_at` integer NOT NULL,
	`dispatched_at` integer
);
--> statement-breakpoint
CREATE INDEX `events_pending_idx` ON `events` (`dispatched_at`,`created_at`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`workspace_id` text NOT NULL,
	`key` text NOT NULL,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`body_hash` text NOT NULL,
	`status` integer NOT NULL,
	`response` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_expires_idx` ON `idempotency_keys` (`expires_at`);--> statement-breakpoint
CREATE TABLE `account_transactions` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`account_id` text NOT NULL,
	`amount` integer NOT NULL,
	`order_id` text,
	`booking_id` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `account_transactions_account_idx` ON `account_transactions` (`account_id`);--> statement-breakpoint
CREATE TABLE `order_lines` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`order_id` text NOT NULL,
	`kind` text NOT NULL,
	`ref_id` text NOT NULL,
	`booking_id` text,
	`position` integer NOT NULL,
	`name` text NOT NULL,
	`article` text,
	`unit_price` integer NOT NULL,
	`catalog_price` integer NOT NULL,
	`quantity` integer NOT NULL,
	`staffer_id` text,
	`tax_name` text,
	`tax_rate_bp` integer,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `order_lines_order_idx` ON `order_lines` (`order_id`);--> statement-breakpoint
CREATE TABLE `orders` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`kind` text NOT NULL,
	`location_id` text NOT NULL,
	`staffer_id` text,
	`customer_id` text,
	`status` text NOT NULL,
	`order_number` integer NOT NULL,
	`is_reverted` integer DEFAULT false NOT NULL,
	`discount_amount` integer DEFAULT 0 NOT NULL,
	`discount_mode` text,
	`discount_percent` integer,
	`promocode` text,
	`promocode_discount_amount` integer,
	`subtotal` integer DEFAULT 0 NOT NULL,
	`tax_total` integer DEFAULT 0 NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`account_paid_amount` integer DEFAULT 0 NOT NULL,
	`voucher_paid_amount` integer DEFAULT 0 NOT NULL,
	`account_id` text,
	`payment_method` text,
	`comment` text,
	`description` text,
	`invoice_note` text,
	`created_at` integer NOT NULL,
	`paid_at` integer,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `orders_workspace_number_uq` ON `orders` (`workspace_id`,`order_number`);--> statement-breakpoint
CREATE INDEX `orders_workspace_kind_created_idx` ON `orders` (`workspace_id`,`kind`,`created_at`);--> statement-breakpoint
CREATE TABLE `promocode_uses` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`promocode_id` text NOT NULL,
	`order_id` text,
	`booking_id` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `promocode_uses_promocode_idx` ON `promocode_uses` (`promocode_id`);--> statement-breakpoint
CREATE TABLE `workspace_counters` (
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`value` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `name`)
);
--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`webhook_id` integer NOT NULL,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`kind` text DEFAULT 'http' NOT NULL,
	`attempt` integer NOT NULL,
	`status_code` integer,
	`success` integer NOT NULL,
	`error` text,
	`duration_ms` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook_idx` ON `webhook_deliveries` (`webhook_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` text NOT NULL,
	`url` text NOT NULL,
	`method` text DEFAULT 'post' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`success_statuses` text DEFAULT '200,201' NOT NULL,
	`status` text DEFAULT 'enabled' NOT NULL,
	`send_notification` integer DEFAULT false NOT NULL,
	`emails` text DEFAULT '' NOT NULL,
	`events` text NOT NULL,
	`parameters` text DEFAULT '[]' NOT NULL,
	`headers` text DEFAULT '[]' NOT NULL,
	`tries` integer DEFAULT 3 NOT NULL,
	`timeout` integer DEFAULT 10 NOT NULL,
	`secret` text NOT NULL,
	`previous_secret` text,
	`consecutive_failures` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhooks_workspace_idx` ON `webhooks` (`workspace_id`,`id`);