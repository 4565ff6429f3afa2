CREATE TABLE `reservations` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`location_id` text NOT NULL,
	`items` text NOT NULL,
	`expires_at` integer NOT NULL,
	`released_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `reservations_expires_idx` ON `reservations` (`expires_at`);--> statement-breakpoint
ALTER TABLE `calendar_entries` ADD `expires_at` integer;
