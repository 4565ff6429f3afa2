-- Message delivery. Each workspace's clock (a Durable Object alarm) asks for its own due and next
-- scheduled messages: an index led by the workspace answers without reading other workspaces'
-- rows. The provider's own id for a sent message (Resend's e-mail id, Twilio's message SID) is
-- kept so a message can be traced at the provider.
CREATE INDEX `messages_workspace_due_idx` ON `messages` (`workspace_id`,`status`,`scheduled_for`);
--> statement-breakpoint
ALTER TABLE `messages` ADD `provider_message_id` text;
