-- The longest entry each calendar (a staffer's, or one unit of a resource) has ever had, in ms.
-- Slot search reads a calendar's entries overlapping a window [start, end) through the index on
-- (calendar, starts_at). `starts_at < end` bounds that range only above, so every past entry of
-- the calendar was read; an entry that overlaps the window starts after `start - longest`, so with
-- this row the range is bounded on both sides and a search reads the window's entries (plus those
-- of the `longest` before it), whatever the calendar's history. `calendar_id` is the calendar's id
-- as src/calendar/ids.ts spells it: the staffer's id, or `<resource id>#<unit>`.
CREATE TABLE `calendar_spans` (
	`calendar_id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`staffer_id` text,
	`resource_id` text,
	`unit` integer,
	`longest` integer NOT NULL
);
--> statement-breakpoint
-- A search of units starts from the resources a service needs: every unit that has entries.
CREATE INDEX `calendar_spans_resource_idx` ON `calendar_spans` (`resource_id`, `unit`);
--> statement-breakpoint
-- Kept by the database itself, in the writing transaction, whatever wrote the entry (a booking, a
-- reservation, a blocked spot, a resource block, an external calendar's sync; one row or a JSON
-- insert of thousands): no writer can forget it. `longest` only grows (a deleted entry leaves it
-- as it was: a bound too wide reads a few more rows, one too narrow would miss busy time). Only a
-- longer entry writes: any other insert costs one primary-key lookup, no row written.
CREATE TRIGGER `calendar_spans_on_insert` AFTER INSERT ON `calendar_entries`
WHEN NOT EXISTS (
	SELECT 1 FROM `calendar_spans` s
	WHERE s.`calendar_id` = coalesce(NEW.`staffer_id`, NEW.`resource_id` || '#' || NEW.`unit`)
		AND s.`longest` >= NEW.`ends_at` - NEW.`starts_at`
)
BEGIN
	INSERT INTO `calendar_spans` (`calendar_id`, `workspace_id`, `staffer_id`, `resource_id`, `unit`, `longest`)
	VALUES (coalesce(NEW.`staffer_id`, NEW.`resource_id` || '#' || NEW.`unit`), NEW.`workspace_id`,
		NEW.`staffer_id`, NEW.`resource_id`, NEW.`unit`, NEW.`ends_at` - NEW.`starts_at`)
	ON CONFLICT (`calendar_id`) DO UPDATE SET `longest` = max(`longest`, excluded.`longest`);
END;
--> statement-breakpoint
-- No write moves an entry today (a move deletes and inserts); should one ever, the bound holds.
CREATE TRIGGER `calendar_spans_on_update` AFTER UPDATE OF `starts_at`, `ends_at`, `staffer_id`, `resource_id`, `unit` ON `calendar_entries`
WHEN NOT EXISTS (
	SELECT 1 FROM `calendar_spans` s
	WHERE s.`calendar_id` = coalesce(NEW.`staffer_id`, NEW.`resource_id` || '#' || NEW.`unit`)
		AND s.`longest` >= NEW.`ends_at` - NEW.`starts_at`
)
BEGIN
	INSERT INTO `calendar_spans` (`calendar_id`, `workspace_id`, `staffer_id`, `resource_id`, `unit`, `longest`)
	VALUES (coalesce(NEW.`staffer_id`, NEW.`resource_id` || '#' || NEW.`unit`), NEW.`workspace_id`,
		NEW.`staffer_id`, NEW.`resource_id`, NEW.`unit`, NEW.`ends_at` - NEW.`starts_at`)
	ON CONFLICT (`calendar_id`) DO UPDATE SET `longest` = max(`longest`, excluded.`longest`);
END;
--> statement-breakpoint
-- Filled from the entries already there, after the triggers exist: an entry written meanwhile has
-- raised its own row, and the larger length wins either way.
INSERT INTO `calendar_spans` (`calendar_id`, `workspace_id`, `staffer_id`, `resource_id`, `unit`, `longest`)
SELECT coalesce(`staffer_id`, `resource_id` || '#' || `unit`), `workspace_id`, `staffer_id`, `resource_id`, `unit`,
	max(`ends_at` - `starts_at`)
FROM `calendar_entries`
WHERE true
GROUP BY coalesce(`staffer_id`, `resource_id` || '#' || `unit`)
ON CONFLICT (`calendar_id`) DO UPDATE SET `longest` = max(`longest`, excluded.`longest`);
