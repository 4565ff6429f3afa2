-- A recurring series: the rule a customer's standing appointment was booked with. Its bookings
-- name it (bookings.series_id); a series change (cancel or reschedule from one occurrence on)
-- commits at the version it read, as a booking's change does.
CREATE TABLE `series` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`),
	`location_id` text NOT NULL REFERENCES `locations`(`id`),
	`customer_id` text NOT NULL REFERENCES `customers`(`id`),
	`rule` text NOT NULL,
	`count` integer NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `series_workspace_created_idx` ON `series` (`workspace_id`,`created_at`);
--> statement-breakpoint
ALTER TABLE `bookings` ADD `series_id` text REFERENCES `series`(`id`);
--> statement-breakpoint
CREATE INDEX `bookings_series_idx` ON `bookings` (`series_id`,`start_at`);
