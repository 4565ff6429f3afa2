-- A provider event is deduplicated on the shard of the workspace it is about (the webhook routes
-- it there by its object's metadata.workspace_id, and reads the dedupe row in the same call as the
-- checkout it names). A move must carry these rows with the workspace, so a redelivery after the
-- move is still known as handled: the row names its workspace. Rows from before have none (there
-- were none in production when shards came: the events of a moved workspace's past are not needed).
ALTER TABLE `payment_provider_events` ADD `workspace_id` text;
--> statement-breakpoint
CREATE INDEX `payment_provider_events_workspace_idx` ON `payment_provider_events` (`workspace_id`);
