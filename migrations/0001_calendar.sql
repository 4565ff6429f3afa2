CREATE TABLE `blocked_spots` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`staffer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`starts_at_raw` text NOT NULL,
	`ends_at_raw` text NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`comment` text,
	`class` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`staffer_id`) REFERENCES `staffers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `blocked_spots_staffer_idx` ON `blocked_spots` (`staffer_id`,`starts_at`);--> statement-breakpoint
CREATE TABLE `calendar_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`staffer_id` text NOT NULL,
	`location_id` text NOT NULL,
	`kind` text NOT NULL,
	`source_id` text NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`staffer_id`) REFERENCES `staffers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `calendar_entries_staffer_start_idx` ON `calendar_entries` (`staffer_id`,`starts_at`);--> statement-breakpoint
CREATE INDEX `calendar_entries_source_idx` ON `calendar_entries` (`source_id`);