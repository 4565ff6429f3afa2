-- The waitlist: customers waiting for time at a location, offered freed time one entry at a time.
CREATE TABLE `waitlist_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`),
	`location_id` text NOT NULL REFERENCES `locations`(`id`),
	`services` text NOT NULL,
	`phone` text NOT NULL,
	`first_name` text NOT NULL,
	`email` text,
	`locale` text,
	`from_date` text NOT NULL,
	`to_date` text NOT NULL,
	`times` text,
	`window_start` integer NOT NULL,
	`window_end` integer NOT NULL,
	`status` text NOT NULL,
	`offer_reservation_id` text,
	`offer_start` integer,
	`offer_end` integer,
	`offer_expires_at` integer,
	`offer_token_hash` text,
	`passed` text DEFAULT '[]' NOT NULL,
	`booking_id` text,
	`link_origin` text NOT NULL,
	`api_key_id` text NOT NULL,
	`visitor` text,
	`message_visitor` text,
	`lapses` integer DEFAULT 0 NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `waitlist_entries_workspace_idx` ON `waitlist_entries` (`workspace_id`,`status`,`created_at`);
--> statement-breakpoint
CREATE INDEX `waitlist_entries_location_idx` ON `waitlist_entries` (`workspace_id`,`location_id`,`status`,`window_end`);
--> statement-breakpoint
CREATE INDEX `waitlist_entries_phone_idx` ON `waitlist_entries` (`workspace_id`,`phone`,`status`);
--> statement-breakpoint
CREATE INDEX `waitlist_entries_visitor_idx` ON `waitlist_entries` (`workspace_id`,`visitor`,`status`);
--> statement-breakpoint
CREATE INDEX `waitlist_entries_offer_idx` ON `waitlist_entries` (`offer_reservation_id`);
--> statement-breakpoint
CREATE UNIQUE INDEX `waitlist_entries_offer_token_idx` ON `waitlist_entries` (`offer_token_hash`);
--> statement-breakpoint
-- The matching index: freed time on a day finds the entries wanting that day and service by key.
CREATE TABLE `waitlist_days` (
	`workspace_id` text NOT NULL,
	`location_id` text NOT NULL,
	`day` text NOT NULL,
	`service_id` text NOT NULL,
	`entry_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `location_id`, `day`, `service_id`, `created_at`, `entry_id`)
);
--> statement-breakpoint
CREATE INDEX `waitlist_days_entry_idx` ON `waitlist_days` (`entry_id`);
--> statement-breakpoint
CREATE TABLE `waitlist_freed` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` text NOT NULL,
	`location_id` text NOT NULL,
	`staffer_id` text,
	`resource_id` text,
	`entry_id` text,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`due_at` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `waitlist_freed_location_idx` ON `waitlist_freed` (`workspace_id`,`location_id`,`due_at`);
--> statement-breakpoint
CREATE INDEX `waitlist_freed_created_idx` ON `waitlist_freed` (`workspace_id`,`created_at`);
--> statement-breakpoint
-- Every write that removes busy time (cancel, move, staffer change, a reservation used or
-- released, a blocked spot or external busy time removed) deletes calendar_entries rows: the
-- time they covered is recorded as freed, in the same transaction, when it is still to come and
-- someone at the location waits (or holds an offer: a declined offer's release wakes the desk)
-- for time overlapping it.
CREATE TRIGGER `waitlist_freed_on_delete` AFTER DELETE ON `calendar_entries`
WHEN OLD.`ends_at` > CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
	AND (OLD.`expires_at` IS NULL OR OLD.`expires_at` > CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER))
	AND EXISTS (
		SELECT 1 FROM `waitlist_entries` w
		WHERE w.`workspace_id` = OLD.`workspace_id` AND w.`location_id` = OLD.`location_id`
			AND w.`status` IN ('waiting', 'offered') AND w.`window_start` < OLD.`ends_at` AND w.`window_end` > OLD.`starts_at`
	)
BEGIN
	INSERT INTO `waitlist_freed` (`workspace_id`, `location_id`, `staffer_id`, `resource_id`, `starts_at`, `ends_at`, `due_at`, `created_at`)
	VALUES (OLD.`workspace_id`, OLD.`location_id`, OLD.`staffer_id`, OLD.`resource_id`, OLD.`starts_at`, OLD.`ends_at`,
		CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
END;
--> statement-breakpoint
-- A hold frees its time at its expiry without any write: recorded when it is made, due then.
CREATE TRIGGER `waitlist_freed_on_hold` AFTER INSERT ON `calendar_entries`
WHEN NEW.`kind` = 'held' AND NEW.`expires_at` IS NOT NULL
	AND EXISTS (
		SELECT 1 FROM `waitlist_entries` w
		WHERE w.`workspace_id` = NEW.`workspace_id` AND w.`location_id` = NEW.`location_id`
			AND w.`status` IN ('waiting', 'offered') AND w.`window_start` < NEW.`ends_at` AND w.`window_end` > NEW.`starts_at`
	)
BEGIN
	INSERT INTO `waitlist_freed` (`workspace_id`, `location_id`, `staffer_id`, `resource_id`, `starts_at`, `ends_at`, `due_at`, `created_at`)
	VALUES (NEW.`workspace_id`, NEW.`location_id`, NEW.`staffer_id`, NEW.`resource_id`, NEW.`starts_at`, NEW.`ends_at`,
		NEW.`expires_at`, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
END;
--> statement-breakpoint
ALTER TABLE `messages` ADD `waitlist_entry_id` text;
