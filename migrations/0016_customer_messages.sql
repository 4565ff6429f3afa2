-- Customer messages (confirmations, reminders, changes): one row per message and channel. A
-- message is written `scheduled` in the same batch as the booking change that causes it (for
-- now, or a reminder's time); delivery claims a due row with a lease (`lease_until`) so it is
-- sent once, and records what happened.
CREATE TABLE `messages` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`),
	`booking_id` text,
	`customer_id` text,
	`kind` text NOT NULL,
	`channel` text NOT NULL CHECK (`channel` IN ('email', 'sms')),
	`to` text NOT NULL,
	`locale` text NOT NULL,
	`subject` text,
	`body` text NOT NULL,
	`status` text NOT NULL CHECK (`status` IN ('scheduled', 'sent', 'failed', 'skipped', 'canceled')),
	`provider` text,
	`scheduled_for` integer NOT NULL,
	`sent_at` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`error` text,
	`lease_until` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `messages_workspace_created_idx` ON `messages` (`workspace_id`,`created_at`,`id`);
--> statement-breakpoint
CREATE INDEX `messages_booking_idx` ON `messages` (`booking_id`);
--> statement-breakpoint
CREATE INDEX `messages_due_idx` ON `messages` (`status`,`scheduled_for`);
--> statement-breakpoint
-- A workspace's notification settings (channels, reminders, templates) as one JSON document.
CREATE TABLE `notification_settings` (
	`workspace_id` text PRIMARY KEY NOT NULL REFERENCES `workspaces`(`id`),
	`settings` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
-- A customer's language (from the browser of their first booking) and their opt-outs per channel.
ALTER TABLE `customers` ADD `locale` text;
--> statement-breakpoint
ALTER TABLE `customers` ADD `notify_email` integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE `customers` ADD `notify_sms` integer DEFAULT 1 NOT NULL;
