CREATE TABLE `categories` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`class` text,
	`order` integer DEFAULT 0 NOT NULL,
	`cover` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `categories_workspace_idx` ON `categories` (`workspace_id`,`kind`);--> statement-breakpoint
CREATE TABLE `good_stocks` (
	`workspace_id` text NOT NULL,
	`good_id` text NOT NULL,
	`location_id` text NOT NULL,
	`quantity` integer NOT NULL,
	`unit_price` integer NOT NULL,
	`critical_stock` integer,
	PRIMARY KEY(`good_id`, `location_id`),
	FOREIGN KEY (`good_id`) REFERENCES `goods`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `goods` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`article` text NOT NULL,
	`category_id` text,
	`description` text,
	`is_payable` integer NOT NULL,
	`price` integer,
	`unit` text NOT NULL,
	`is_consumable` integer NOT NULL,
	`consumable_unit` text,
	`quantity_in_unit` integer,
	`images` text DEFAULT '[]' NOT NULL,
	`live` integer DEFAULT true NOT NULL,
	`live_in_widget` integer DEFAULT true NOT NULL,
	`public_name_translatable` text DEFAULT '{}' NOT NULL,
	`public_description_translatable` text DEFAULT '{}' NOT NULL,
	`tax_name` text,
	`tax_rate_bp` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `goods_workspace_article_uq` ON `goods` (`workspace_id`,`article`);--> statement-breakpoint
CREATE INDEX `goods_workspace_created_idx` ON `goods` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `service_locations` (
	`workspace_id` text NOT NULL,
	`service_id` text NOT NULL,
	`location_id` text NOT NULL,
	PRIMARY KEY(`service_id`, `location_id`),
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `service_locations_location_idx` ON `service_locations` (`location_id`);--> statement-breakpoint
CREATE TABLE `service_staffers` (
	`workspace_id` text NOT NULL,
	`service_id` text NOT NULL,
	`staffer_id` text NOT NULL,
	PRIMARY KEY(`service_id`, `staffer_id`),
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`staffer_id`) REFERENCES `staffers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `service_staffers_staffer_idx` ON `service_staffers` (`staffer_id`);--> statement-breakpoint
CREATE TABLE `services` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`images` text DEFAULT '[]' NOT NULL,
	`price` integer NOT NULL,
	`price_discount` integer,
	`price_type` text DEFAULT 'base' NOT NULL,
	`duration` integer NOT NULL,
	`is_pause` integer DEFAULT false NOT NULL,
	`pause` integer DEFAULT 0 NOT NULL,
	`is_price_hidden` integer DEFAULT false NOT NULL,
	`is_duration_hidden` integer DEFAULT false NOT NULL,
	`is_top` integer DEFAULT false NOT NULL,
	`starting_at` integer DEFAULT false NOT NULL,
	`live` integer DEFAULT true NOT NULL,
	`live_in_widget` integer DEFAULT true NOT NULL,
	`is_auto_allocated` integer DEFAULT false NOT NULL,
	`class` text,
	`category_id` text,
	`tax_name` text,
	`tax_rate_bp` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `services_workspace_created_idx` ON `services` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `voucher_templates` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`price` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `voucher_templates_workspace_idx` ON `voucher_templates` (`workspace_id`);--> statement-breakpoint
CREATE TABLE `customers` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text,
	`middle_name` text,
	`phone` text NOT NULL,
	`email` text,
	`email_lower` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `customers_workspace_phone_uq` ON `customers` (`workspace_id`,`phone`);--> statement-breakpoint
CREATE INDEX `customers_workspace_email_idx` ON `customers` (`workspace_id`,`email_lower`);--> statement-breakpoint
CREATE INDEX `customers_workspace_created_idx` ON `customers` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `locations` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`timezone` text NOT NULL,
	`slot_step` integer DEFAULT 15 NOT NULL,
	`min_notice` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `locations_workspace_created_idx` ON `locations` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`location_id` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`balance` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `accounts_workspace_created_idx` ON `accounts` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `booking_statuses` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `booking_statuses_workspace_idx` ON `booking_statuses` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `promocodes` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`code` text NOT NULL,
	`discount_percent` integer,
	`discount_amount` integer,
	`max_uses` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `promocodes_workspace_code_uq` ON `promocodes` (`workspace_id`,`code`);--> statement-breakpoint
CREATE TABLE `staffer_date_overrides` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`staffer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`date` text NOT NULL,
	`intervals` text NOT NULL,
	FOREIGN KEY (`staffer_id`) REFERENCES `staffers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `staffer_date_overrides_staffer_idx` ON `staffer_date_overrides` (`staffer_id`,`location_id`,`date`);--> statement-breakpoint
CREATE TABLE `staffer_locations` (
	`workspace_id` text NOT NULL,
	`staffer_id` text NOT NULL,
	`location_id` text NOT NULL,
	PRIMARY KEY(`staffer_id`, `location_id`),
	FOREIGN KEY (`staffer_id`) REFERENCES `staffers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `staffer_locations_location_idx` ON `staffer_locations` (`location_id`);--> statement-breakpoint
CREATE TABLE `staffer_schedules` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`staffer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`weekday` integer NOT NULL,
	`start` text NOT NULL,
	`end` text NOT NULL,
	FOREIGN KEY (`staffer_id`) REFERENCES `staffers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `staffer_schedules_staffer_idx` ON `staffer_schedules` (`staffer_id`,`location_id`);--> statement-breakpoint
CREATE TABLE `staffers` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text,
	`email` text,
	`is_active_in_widget` integer DEFAULT true NOT NULL,
	`permissions` text DEFAULT '[]' NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `staffers_workspace_created_idx` ON `staffers` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`key_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `api_keys_workspace_idx` ON `api_keys` (`workspace_id`);--> statement-breakpoint
CREATE TABLE `workspaces` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`country` text NOT NULL,
	`currency` text NOT NULL,
	`locale` text NOT NULL,
	`timezone` text NOT NULL,
	`created_at` integer NOT NULL
);
