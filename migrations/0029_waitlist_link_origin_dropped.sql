-- Offer links are built on the configured public origin (PUBLIC_ORIGIN), never on the
-- origin a join's request reached: the column is no longer read.
ALTER TABLE `waitlist_entries` DROP COLUMN `link_origin`;
