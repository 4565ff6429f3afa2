-- Why a message was skipped, as the API shows it (`skip_reason`). Rows skipped before this
-- migration are given theirs: the daily bounds wrote theirs into `error`; every other skip was an
-- opt-out (the only other reason there was).
ALTER TABLE `messages` ADD `skip_reason` text;
--> statement-breakpoint
UPDATE `messages` SET `skip_reason` = CASE
	WHEN `error` IN ('visitor_quota', 'booking_quota') THEN `error`
	ELSE 'opted_out'
END WHERE `status` = 'skipped';
--> statement-breakpoint
-- Messages that publishable-key and keyless requests caused, per workspace and UTC day: one row
-- per recipient (`sms:+4915…`, `email:ada@example.org`) and one for the workspace's budget
-- (recipient ''). A message's write reads its counters in the statement that inserts it and adds
-- to them in the next one of the same batch (D1 runs one batch at a time, so no two writes pass a
-- bound together). `reached`: the budget's `quota-reached` event of the day was written.
CREATE TABLE `public_message_counts` (
	`workspace_id` text NOT NULL,
	`day` integer NOT NULL,
	`recipient` text NOT NULL,
	`used` integer DEFAULT 0 NOT NULL,
	`reached` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY (`workspace_id`, `day`, `recipient`)
);
--> statement-breakpoint
-- SMS go only to the countries a workspace serves, its own unless it says otherwise: settings saved
-- before this are given that default.
UPDATE `notification_settings` SET `settings` = json_set(
	`settings`,
	'$.sms_countries',
	json_array((SELECT upper(`country`) FROM `workspaces` WHERE `workspaces`.`id` = `notification_settings`.`workspace_id`))
) WHERE json_extract(`settings`, '$.sms_countries') IS NULL;
