-- A staffer's external calendars (ICS URLs whose events are busy time). The busy time itself is
-- kept in `calendar_entries` (kind `external`, source_id = the external calendar's id), so slot
-- search, the calendar objects' rebuild and the audit read it with everything else. `seq` grows
-- with every sync that changed the busy time: the calendar object applies a sync only when its
-- seq is newer than the last it applied, so two syncs racing end as D1 ends.
CREATE TABLE `external_calendars` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`),
	`staffer_id` text NOT NULL REFERENCES `staffers`(`id`),
	`location_id` text NOT NULL REFERENCES `locations`(`id`),
	`url` text NOT NULL,
	`name` text,
	`etag` text,
	`status` text NOT NULL,
	`last_synced_at` integer NOT NULL,
	`busy_count` integer NOT NULL,
	`seq` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `external_calendars_staffer_idx` ON `external_calendars` (`staffer_id`, `created_at`);
