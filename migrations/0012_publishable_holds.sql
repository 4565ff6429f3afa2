ALTER TABLE `reservations` ADD `key_kind` text DEFAULT 'secret' NOT NULL;--> statement-breakpoint
ALTER TABLE `reservations` ADD `holder` text;--> statement-breakpoint
CREATE INDEX `reservations_holder_idx` ON `reservations` (`workspace_id`,`holder`,`expires_at`);--> statement-breakpoint
CREATE INDEX `reservations_location_idx` ON `reservations` (`workspace_id`,`location_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `calendar_entries` ADD `yields` integer DEFAULT false NOT NULL;
