-- Workspaces spread over shards. The same schema runs on the directory (`DB`) and on every
-- shard (`SHARD_0` …); each table means something on one side only:
-- - directory: `workspaces` (every workspace, with `shard`: where its data lives), `api_keys`,
--   `workspace_moves` (a move's progress, so a crashed move resumes where it stopped);
-- - shard: the workspace's own copy of its `workspaces` row (the one-row source of batch
--   guards, and the settings its queries join) with `placement`, and every tenant table.
-- `placement` is what the D1 layer checks on every call to a shard: a write commits only where
-- the workspace is `open`; a read is answered where it is `open` or `moving_out` (a move copies
-- it, writes paused). A directory row of a workspace living on a shard says `directory`, so the
-- directory is never mistaken for its home. Rows from before this migration live in `DB`.
ALTER TABLE `workspaces` ADD `shard` text DEFAULT 'DB' NOT NULL;
--> statement-breakpoint
ALTER TABLE `workspaces` ADD `placement` text DEFAULT 'open' NOT NULL;
--> statement-breakpoint
CREATE INDEX `workspaces_shard_idx` ON `workspaces` (`shard`);
--> statement-breakpoint
CREATE TABLE `placement_fence` (
	`workspace_id` text NOT NULL,
	CONSTRAINT "workspace_not_here" CHECK(0)
);
--> statement-breakpoint
CREATE TABLE `workspace_moves` (
	`workspace_id` text PRIMARY KEY NOT NULL,
	`from_shard` text NOT NULL,
	`to_shard` text NOT NULL,
	`status` text NOT NULL,
	`table_index` integer DEFAULT 0 NOT NULL,
	`last_rowid` integer DEFAULT 0 NOT NULL,
	`copied_rows` integer DEFAULT 0 NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`started_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`finished_at` integer
);
--> statement-breakpoint
CREATE INDEX `workspace_moves_status_idx` ON `workspace_moves` (`status`, `updated_at`);
--> statement-breakpoint
-- A hold's fence moves with its workspace (a late write of a settled hold must stay refused
-- on the new shard). Fences from before carry none; they are pruned within a day.
ALTER TABLE `hold_fences` ADD `workspace_id` text;
