-- A staffer's calendar feed (the secret .ics URL a phone subscribes to): one per staffer, found by
-- the SHA-256 of its token (the token itself is never stored). A new token replaces the row, so
-- the old URL stops answering.
CREATE TABLE `calendar_feeds` (
	`staffer_id` text PRIMARY KEY NOT NULL REFERENCES `staffers`(`id`),
	`workspace_id` text NOT NULL REFERENCES `workspaces`(`id`),
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_feeds_token_idx` ON `calendar_feeds` (`token_hash`);
