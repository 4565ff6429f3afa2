-- How many attempts each event has had at each webhook, and when the next may start. The
-- consumer claims an attempt here (compare-and-set on `attempts`) before it sends, so a queue
-- message redelivered early, twice, or after a failed batch never adds an attempt beyond the
-- webhook's `tries` or ahead of its backoff. Pruned once no queue message can still ask.
CREATE TABLE `webhook_attempts` (
	`event_id` text NOT NULL,
	`webhook_id` integer NOT NULL,
	`attempts` integer NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`event_id`, `webhook_id`)
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_expires_idx` ON `webhook_attempts` (`expires_at`);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_webhook_idx` ON `webhook_attempts` (`webhook_id`);
