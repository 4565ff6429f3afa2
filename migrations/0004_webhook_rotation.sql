ALTER TABLE `webhooks` ADD `previous_secret_expires_at` integer;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_event_idx` ON `webhook_deliveries` (`event_id`,`webhook_id`);