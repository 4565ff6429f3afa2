ALTER TABLE `locations` ADD `cancellation_offset` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `locations` ADD `change_offset` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `locations` ADD `policy_text` text;--> statement-breakpoint
ALTER TABLE `locations` ADD `cancellation_text` text;--> statement-breakpoint
ALTER TABLE `locations` ADD `change_text` text;--> statement-breakpoint
CREATE TABLE `booking_forms` (
	`workspace_id` text PRIMARY KEY NOT NULL,
	`customer_email` text DEFAULT 'optional' NOT NULL,
	`customer_last_name` text DEFAULT 'optional' NOT NULL,
	`customer_middle_name` text DEFAULT 'optional' NOT NULL,
	`booking_comment` text DEFAULT 'optional' NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
