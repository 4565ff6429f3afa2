-- Online payments land in the POS: every location has an account of type `online`, which money
-- paid through the provider is credited to and refunds are debited from. New locations get theirs
-- when they are created; locations made before this migration get theirs here (a random v4 uuid
-- each). A booking's order counts what was paid online for it once the booking is completed.
INSERT INTO `accounts` (`id`, `workspace_id`, `location_id`, `name`, `type`, `balance`, `created_at`)
SELECT
	lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
		substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) ||
		substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))),
	l.`workspace_id`, l.`id`, 'Online', 'online', 0, l.`created_at`
FROM `locations` l
WHERE NOT EXISTS (
	SELECT 1 FROM `accounts` a WHERE a.`location_id` = l.`id` AND a.`type` = 'online'
);
--> statement-breakpoint
ALTER TABLE `orders` ADD `online_paid_amount` integer DEFAULT 0 NOT NULL;
