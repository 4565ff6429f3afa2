-- Idempotency-Keys belong to the API key that sent them, not to the whole workspace: a
-- publishable key is public, and a stranger must not replay or block a secret key's answer.
-- The primary key changes, which SQLite can only do by rebuilding the table. The answers kept
-- so far (24 h at most) are dropped rather than guessed at: which key sent them was never stored.
DROP TABLE `idempotency_keys`;
--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`workspace_id` text NOT NULL,
	`api_key_id` text NOT NULL,
	`key` text NOT NULL,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`body_hash` text NOT NULL,
	`status` integer NOT NULL,
	`response` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `api_key_id`, `key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_expires_idx` ON `idempotency_keys` (`expires_at`);
