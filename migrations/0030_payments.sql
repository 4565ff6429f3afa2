-- Online payments: a service's payment policy, what a reservation asks of the customer, hosted checkouts, a booking's payment, the ledger of provider calls, and the provider events already handled.
CREATE TABLE `booking_payments` (
	`booking_id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`reservation_id` text,
	`terms` text NOT NULL,
	`policy` text NOT NULL,
	`provider_customer` text,
	`payment_method` text,
	`payment_intent` text,
	`paid_online` integer DEFAULT 0 NOT NULL,
	`refunded` integer DEFAULT 0 NOT NULL,
	`settled_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);

CREATE TABLE `payment_checkouts` (
	`reservation_id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`attempt` integer DEFAULT 1 NOT NULL,
	`session_id` text,
	`provider_customer` text,
	`checkout_url` text,
	`status` text NOT NULL,
	`terms` text NOT NULL,
	`customer` text NOT NULL,
	`success_url` text NOT NULL,
	`cancel_url` text NOT NULL,
	`expires_at` integer NOT NULL,
	`booking_id` text,
	`failure` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);

CREATE UNIQUE INDEX `payment_checkouts_session_idx` ON `payment_checkouts` (`session_id`);
CREATE INDEX `payment_checkouts_open_idx` ON `payment_checkouts` (`status`,`expires_at`);
CREATE TABLE `payment_provider_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`received_at` integer NOT NULL
);

CREATE TABLE `payments` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`booking_id` text NOT NULL,
	`kind` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`status` text NOT NULL,
	`provider` text NOT NULL,
	`provider_ref` text,
	`idempotency_key` text NOT NULL,
	`failure_reason` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);

CREATE UNIQUE INDEX `payments_key_idx` ON `payments` (`workspace_id`,`idempotency_key`);
CREATE INDEX `payments_booking_idx` ON `payments` (`workspace_id`,`booking_id`,`created_at`);
CREATE INDEX `payments_pending_idx` ON `payments` (`status`,`updated_at`);
CREATE INDEX `payments_ref_idx` ON `payments` (`provider_ref`);
ALTER TABLE `services` ADD `payment_policy` text;
ALTER TABLE `reservations` ADD `payment` text;
ALTER TABLE `bookings` ADD `cancel_charges_fee` integer DEFAULT false NOT NULL;
CREATE INDEX `booking_payments_unsettled_idx` ON `booking_payments` (`settled_at`);
