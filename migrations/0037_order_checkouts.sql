-- A POS order paid online (a membership's first period, the card saved): the provider's hosted session per attempt and where it stands.
-- The attempt that paid carries its payment intent and, once the order is refunded, the refund of that money at the provider (pending until the provider answers).
CREATE TABLE `order_checkouts` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`order_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`status` text NOT NULL,
	`session_id` text,
	`checkout_url` text,
	`provider_customer` text,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`expires_at` integer NOT NULL,
	`failure` text,
	`payment_intent` text,
	`refund_status` text,
	`refund_amount` integer,
	`refund_ref` text,
	`refund_failure` text,
	`refund_requested_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `order_checkouts_attempt_uq` ON `order_checkouts` (`order_id`,`attempt`);
--> statement-breakpoint
CREATE UNIQUE INDEX `order_checkouts_session_uq` ON `order_checkouts` (`session_id`);
--> statement-breakpoint
CREATE INDEX `order_checkouts_status_expires_idx` ON `order_checkouts` (`status`,`expires_at`);
--> statement-breakpoint
CREATE INDEX `order_checkouts_refund_idx` ON `order_checkouts` (`refund_status`,`refund_requested_at`);
