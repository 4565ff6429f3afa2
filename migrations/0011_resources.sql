CREATE TABLE `resource_blocks` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`resource_id` text NOT NULL,
	`unit` integer,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`comment` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`resource_id`) REFERENCES `resources`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `resource_blocks_resource_idx` ON `resource_blocks` (`resource_id`,`starts_at`);--> statement-breakpoint
CREATE TABLE `resources` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`location_id` text NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`quantity` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `resources_workspace_created_idx` ON `resources` (`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `resources_location_idx` ON `resources` (`location_id`);--> statement-breakpoint
CREATE TABLE `service_resources` (
	`workspace_id` text NOT NULL,
	`service_id` text NOT NULL,
	`resource_id` text NOT NULL,
	PRIMARY KEY(`service_id`, `resource_id`),
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`resource_id`) REFERENCES `resources`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `service_resources_resource_idx` ON `service_resources` (`resource_id`);--> statement-breakpoint
-- Rebuilt because staffer_id becomes nullable (a resource unit's entries have none); nothing references this table.
PRAGMA defer_foreign_keys = on;--> statement-breakpoint
CREATE TABLE `__new_calendar_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`staffer_id` text,
	`resource_id` text,
	`unit` integer,
	`location_id` text NOT NULL,
	`kind` text NOT NULL,
	`source_id` text NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`expires_at` integer,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`staffer_id`) REFERENCES `staffers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`resource_id`) REFERENCES `resources`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "calendar_entries_one_owner" CHECK((staffer_id IS NULL) <> (resource_id IS NULL) AND (resource_id IS NULL) = (unit IS NULL))
);
--> statement-breakpoint
INSERT INTO `__new_calendar_entries`("id", "workspace_id", "staffer_id", "resource_id", "unit", "location_id", "kind", "source_id", "starts_at", "ends_at", "expires_at") SELECT "id", "workspace_id", "staffer_id", NULL, NULL, "location_id", "kind", "source_id", "starts_at", "ends_at", "expires_at" FROM `calendar_entries`;--> statement-breakpoint
DROP TABLE `calendar_entries`;--> statement-breakpoint
ALTER TABLE `__new_calendar_entries` RENAME TO `calendar_entries`;--> statement-breakpoint
PRAGMA defer_foreign_keys = off;--> statement-breakpoint
CREATE INDEX `calendar_entries_staffer_start_idx` ON `calendar_entries` (`staffer_id`,`starts_at`);--> statement-breakpoint
CREATE INDEX `calendar_entries_resource_start_idx` ON `calendar_entries` (`resource_id`,`unit`,`starts_at`);--> statement-breakpoint
CREATE INDEX `calendar_entries_source_idx` ON `calendar_entries` (`source_id`);--> statement-breakpoint
ALTER TABLE `booking_services` ADD `resource_ids` text DEFAULT '[]' NOT NULL;