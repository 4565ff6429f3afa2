-- Offers made to entries a publishable key joined, one row each, counted against the joining
-- visitor's and the workspace's daily bounds (a stranger who deletes an entry and joins again
-- gets no new allowance), pruned once they no longer count.
CREATE TABLE `waitlist_offers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`workspace_id` text NOT NULL,
	`entry_id` text NOT NULL,
	`visitor` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `waitlist_offers_workspace_idx` ON `waitlist_offers` (`workspace_id`, `created_at`);
--> statement-breakpoint
CREATE INDEX `waitlist_offers_visitor_idx` ON `waitlist_offers` (`workspace_id`, `visitor`, `created_at`);
--> statement-breakpoint
CREATE INDEX `waitlist_offers_expires_idx` ON `waitlist_offers` (`expires_at`);
