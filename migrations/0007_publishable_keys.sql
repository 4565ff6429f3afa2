ALTER TABLE `api_keys` ADD `kind` text DEFAULT 'secret' NOT NULL;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `allowed_origins` text DEFAULT '[]' NOT NULL;