-- Reserve with Google: a workspace's partner credentials (the directory's, like api_keys: the
-- booking server finds the workspace by the Basic auth user name, wherever it lives) and the
-- bookings Google made (each workspace's shard: the idempotency token and the answer given).
CREATE TABLE `rwg_partners` (
	`workspace_id` text PRIMARY KEY NOT NULL,
	`username` text NOT NULL,
	`password_hash` text NOT NULL,
	`enabled` integer NOT NULL,
	`partner_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rwg_partners_username_idx` ON `rwg_partners` (`username`);
--> statement-breakpoint
CREATE TABLE `rwg_bookings` (
	`booking_id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`idempotency_token` text NOT NULL,
	`user_id` text NOT NULL,
	`response` text NOT NULL,
	`google_version` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rwg_bookings_token_idx` ON `rwg_bookings` (`workspace_id`,`idempotency_token`);
--> statement-breakpoint
CREATE INDEX `rwg_bookings_user_idx` ON `rwg_bookings` (`workspace_id`,`user_id`,`created_at`);
--> statement-breakpoint
-- A CreateBooking's claim of its idempotency token, taken before the calendar: a concurrent
-- request with the same token is told to retry (409) instead of racing for the time. Deleted
-- with the booking's write or the failure; `claimed_until` (epoch ms) frees a crashed one.
CREATE TABLE `rwg_token_claims` (
	`workspace_id` text NOT NULL,
	`idempotency_token` text NOT NULL,
	`claimed_until` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `idempotency_token`),
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
-- Where a location is on the map (WGS 84 degrees): Google's merchant feed matches listings by it.
ALTER TABLE `locations` ADD `latitude` real;
--> statement-breakpoint
ALTER TABLE `locations` ADD `longitude` real;
