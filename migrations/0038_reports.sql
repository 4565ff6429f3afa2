-- Reports read daily rollups, never the bookings themselves: a year of a location is one read
-- whose rows grow with days × groups. Every rollup row is kept in the transaction that changes
-- what it counts, so it cannot drift: triggers keep what SQL can say from the changed row alone
-- (calendar time, bookings and no-shows, fees, membership renewals); the orders' sales and
-- refunds, whose discount split is the app's pricing, are added by the batch that pays or
-- refunds the order (src/reports/queries/revenue-rollup.ts). `changes` only grows: a rebuild
-- from raw rows commits only if no write moved a rollup meanwhile.

-- A location's UTC offsets: one row per transition of its zone, from `from_ms` on. SQLite knows
-- no time zones, so the rollups find a location's day (days since 1970-01-01 on its wall clock)
-- here. Written with the location; a zone change keeps the past and replaces the future.
CREATE TABLE `location_offsets` (
	`location_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`from_ms` integer NOT NULL,
	`offset_ms` integer NOT NULL,
	PRIMARY KEY (`location_id`, `from_ms`)
);
--> statement-breakpoint
-- Money of a location's day, per dimension: `day` (key ''), `staffer`, `service`,
-- `payment_method` ('' = none). Each dimension sums to the same totals.
CREATE TABLE `report_revenue_days` (
	`location_id` text NOT NULL,
	`dim` text NOT NULL,
	`day` integer NOT NULL,
	`key` text NOT NULL,
	`workspace_id` text NOT NULL,
	`bookings_completed` integer NOT NULL DEFAULT 0,
	`services_amount` integer NOT NULL DEFAULT 0,
	`goods_amount` integer NOT NULL DEFAULT 0,
	`vouchers_sold` integer NOT NULL DEFAULT 0,
	`packages_sold` integer NOT NULL DEFAULT 0,
	`fees` integer NOT NULL DEFAULT 0,
	`refunds` integer NOT NULL DEFAULT 0,
	`discounts` integer NOT NULL DEFAULT 0,
	`changes` integer NOT NULL DEFAULT 0,
	PRIMARY KEY (`location_id`, `dim`, `day`, `key`)
);
--> statement-breakpoint
-- A staffer's calendar time of a location's day: bookings (their buffers included, a group
-- session once however many seats) and blocked spots, split at local midnights.
CREATE TABLE `report_calendar_days` (
	`location_id` text NOT NULL,
	`day` integer NOT NULL,
	`staffer_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`booked_ms` integer NOT NULL DEFAULT 0,
	`blocked_ms` integer NOT NULL DEFAULT 0,
	`changes` integer NOT NULL DEFAULT 0,
	PRIMARY KEY (`location_id`, `day`, `staffer_id`)
);
--> statement-breakpoint
-- Bookings by the location's day of their start, per `service`, `staffer` or `customer` (a booking
-- of two services counts once under each): those that were due (kept, no-shows, late cancels),
-- no-shows, late cancels, and the fees charged for them.
CREATE TABLE `report_booking_days` (
	`location_id` text NOT NULL,
	`dim` text NOT NULL,
	`day` integer NOT NULL,
	`key` text NOT NULL,
	`workspace_id` text NOT NULL,
	`bookings` integer NOT NULL DEFAULT 0,
	`didnt_come` integer NOT NULL DEFAULT 0,
	`late_cancels` integer NOT NULL DEFAULT 0,
	`fees` integer NOT NULL DEFAULT 0,
	`changes` integer NOT NULL DEFAULT 0,
	PRIMARY KEY (`location_id`, `dim`, `day`, `key`)
);
--> statement-breakpoint
-- 0 … 1099: the days an entry spans past its first (an entry longer than three years counts
-- its first 1100 days). The same numbers on every database.
CREATE TABLE `report_day_steps` (`i` integer PRIMARY KEY NOT NULL);
--> statement-breakpoint
INSERT INTO `report_day_steps` (`i`)
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 1099) SELECT i FROM n;
--> statement-breakpoint
-- What a cancel kept of the money paid online as its fee (set with `settled_at`).
ALTER TABLE `booking_payments` ADD `fee_kept` integer;
--> statement-breakpoint
-- The method its complete was paid with (a cart's bookings may be completed at different tills):
-- where the revenue report counts the completion.
ALTER TABLE `bookings` ADD `completed_payment_method` text;
--> statement-breakpoint
-- Bookings completed before: their order's method, the best there is to know.
UPDATE `bookings` SET `completed_payment_method` = (SELECT o.`payment_method` FROM `orders` o WHERE o.`id` = `bookings`.`order_id`)
WHERE `is_completed` = 1;
--> statement-breakpoint
-- The triggers skip a workspace being copied in or already copied away: a move copies the
-- rollups as they are, and its clean-up deletes them. `+o.service_id` and `+o.staffer_id` keep
-- SQLite on the booking's own index: without statistics it would take the service's (or
-- staffer's) and read every booking of it on each write.
CREATE TRIGGER `report_calendar_on_insert` AFTER INSERT ON `calendar_entries`
WHEN NEW.staffer_id IS NOT NULL AND NEW.kind IN ('booking', 'blocked') AND NEW.ends_at > NEW.starts_at AND coalesce((select w.placement from workspaces w where w.id = NEW.workspace_id), 'open') not in ('moving_in', 'moved') AND (NEW.session_key IS NULL OR NOT EXISTS (SELECT 1 FROM calendar_entries e WHERE e.staffer_id = NEW.staffer_id AND e.starts_at = NEW.starts_at AND e.session_key = NEW.session_key AND e.kind IN ('booking', 'blocked') AND e.id <> NEW.id))
BEGIN
	INSERT INTO report_calendar_days (location_id, day, staffer_id, workspace_id, booked_ms, blocked_ms, changes)
	SELECT NEW.location_id, s.day, NEW.staffer_id, NEW.workspace_id,
		CASE WHEN NEW.kind = 'booking' THEN 1 * s.ms ELSE 0 END,
		CASE WHEN NEW.kind = 'blocked' THEN 1 * s.ms ELSE 0 END, 1
	FROM (
		SELECT d.day, max(0, min(NEW.ends_at, ((d.day + 1) * 86400000 - coalesce((select o.offset_ms from location_offsets o where o.location_id = NEW.location_id and o.from_ms <= ((d.day + 1) * 86400000 - coalesce((select o.offset_ms from location_offsets o where o.location_id = NEW.location_id and o.from_ms <= ((d.day + 1) * 86400000) order by o.from_ms desc limit 1), 0)) order by o.from_ms desc limit 1), 0))) - max(NEW.starts_at, ((d.day) * 86400000 - coalesce((select o.offset_ms from location_offsets o where o.location_id = NEW.location_id and o.from_ms <= ((d.day) * 86400000 - coalesce((select o.offset_ms from location_offsets o where o.location_id = NEW.location_id and o.from_ms <= ((d.day) * 86400000) order by o.from_ms desc limit 1), 0)) order by o.from_ms desc limit 1), 0)))) AS ms
		FROM (
			SELECT ((NEW.starts_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = NEW.location_id and o.from_ms <= (NEW.starts_at) order by o.from_ms desc limit 1), 0)) / 86400000 + t.i AS day
			FROM report_day_steps t
			WHERE t.i <= ((NEW.ends_at - 1) + coalesce((select o.offset_ms from location_offsets o where o.location_id = NEW.location_id and o.from_ms <= (NEW.ends_at - 1) order by o.from_ms desc limit 1), 0)) / 86400000 - ((NEW.starts_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = NEW.location_id and o.from_ms <= (NEW.starts_at) order by o.from_ms desc limit 1), 0)) / 86400000
		) d
	) s
	WHERE true
	ON CONFLICT (location_id, day, staffer_id) DO UPDATE SET
		booked_ms = booked_ms + excluded.booked_ms, blocked_ms = blocked_ms + excluded.blocked_ms, changes = changes + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `report_calendar_on_delete` AFTER DELETE ON `calendar_entries`
WHEN OLD.staffer_id IS NOT NULL AND OLD.kind IN ('booking', 'blocked') AND OLD.ends_at > OLD.starts_at AND coalesce((select w.placement from workspaces w where w.id = OLD.workspace_id), 'open') not in ('moving_in', 'moved') AND (OLD.session_key IS NULL OR NOT EXISTS (SELECT 1 FROM calendar_entries e WHERE e.staffer_id = OLD.staffer_id AND e.starts_at = OLD.starts_at AND e.session_key = OLD.session_key AND e.kind IN ('booking', 'blocked')))
BEGIN
	INSERT INTO report_calendar_days (location_id, day, staffer_id, workspace_id, booked_ms, blocked_ms, changes)
	SELECT OLD.location_id, s.day, OLD.staffer_id, OLD.workspace_id,
		CASE WHEN OLD.kind = 'booking' THEN -1 * s.ms ELSE 0 END,
		CASE WHEN OLD.kind = 'blocked' THEN -1 * s.ms ELSE 0 END, 1
	FROM (
		SELECT d.day, max(0, min(OLD.ends_at, ((d.day + 1) * 86400000 - coalesce((select o.offset_ms from location_offsets o where o.location_id = OLD.location_id and o.from_ms <= ((d.day + 1) * 86400000 - coalesce((select o.offset_ms from location_offsets o where o.location_id = OLD.location_id and o.from_ms <= ((d.day + 1) * 86400000) order by o.from_ms desc limit 1), 0)) order by o.from_ms desc limit 1), 0))) - max(OLD.starts_at, ((d.day) * 86400000 - coalesce((select o.offset_ms from location_offsets o where o.location_id = OLD.location_id and o.from_ms <= ((d.day) * 86400000 - coalesce((select o.offset_ms from location_offsets o where o.location_id = OLD.location_id and o.from_ms <= ((d.day) * 86400000) order by o.from_ms desc limit 1), 0)) order by o.from_ms desc limit 1), 0)))) AS ms
		FROM (
			SELECT ((OLD.starts_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = OLD.location_id and o.from_ms <= (OLD.starts_at) order by o.from_ms desc limit 1), 0)) / 86400000 + t.i AS day
			FROM report_day_steps t
			WHERE t.i <= ((OLD.ends_at - 1) + coalesce((select o.offset_ms from location_offsets o where o.location_id = OLD.location_id and o.from_ms <= (OLD.ends_at - 1) order by o.from_ms desc limit 1), 0)) / 86400000 - ((OLD.starts_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = OLD.location_id and o.from_ms <= (OLD.starts_at) order by o.from_ms desc limit 1), 0)) / 86400000
		) d
	) s
	WHERE true
	ON CONFLICT (location_id, day, staffer_id) DO UPDATE SET
		booked_ms = booked_ms + excluded.booked_ms, blocked_ms = blocked_ms + excluded.blocked_ms, changes = changes + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `report_calendar_on_update` AFTER UPDATE OF `starts_at`, `ends_at`, `staffer_id`, `kind`, `session_key`, `location_id` ON `calendar_entries`
WHEN coalesce((select w.placement from workspaces w where w.id = NEW.workspace_id), 'open') not in ('moving_in', 'moved')
BEGIN
	INSERT INTO report_calendar_days (location_id, day, staffer_id, workspace_id, booked_ms, blocked_ms, changes)
	SELECT OLD.location_id, s.day, OLD.staffer_id, OLD.workspace_id,
		CASE WHEN OLD.kind = 'booking' THEN -1 * s.ms ELSE 0 END,
		CASE WHEN OLD.kind = 'blocked' THEN -1 * s.ms ELSE 0 END, 1
	FROM (
		SELECT d.day, max(0, min(OLD.ends_at, ((d.day + 1) * 86400000 - coalesce((select o.offset_ms from location_offsets o where o.location_id = OLD.location_id and o.from_ms <= ((d.day + 1) * 86400000 - coalesce((select o.offset_ms from location_offsets o where o.location_id = OLD.location_id and o.from_ms <= ((d.day + 1) * 86400000) order by o.from_ms desc limit 1), 0)) order by o.from_ms desc limit 1), 0))) - max(OLD.starts_at, ((d.day) * 86400000 - coalesce((select o.offset_ms from location_offsets o where o.location_id = OLD.location_id and o.from_ms <= ((d.day) * 86400000 - coalesce((select o.offset_ms from location_offsets o where o.location_id = OLD.location_id and o.from_ms <= ((d.day) * 86400000) order by o.from_ms desc limit 1), 0)) order by o.from_ms desc limit 1), 0)))) AS ms
		FROM (
			SELECT ((OLD.starts_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = OLD.location_id and o.from_ms <= (OLD.starts_at) order by o.from_ms desc limit 1), 0)) / 86400000 + t.i AS day
			FROM report_day_steps t
			WHERE t.i <= ((OLD.ends_at - 1) + coalesce((select o.offset_ms from location_offsets o where o.location_id = OLD.location_id and o.from_ms <= (OLD.ends_at - 1) order by o.from_ms desc limit 1), 0)) / 86400000 - ((OLD.starts_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = OLD.location_id and o.from_ms <= (OLD.starts_at) order by o.from_ms desc limit 1), 0)) / 86400000
		) d
	) s
	WHERE OLD.staffer_id IS NOT NULL AND OLD.kind IN ('booking', 'blocked') AND OLD.ends_at > OLD.starts_at AND (OLD.session_key IS NULL OR NOT EXISTS (SELECT 1 FROM calendar_entries e WHERE e.staffer_id = OLD.staffer_id AND e.starts_at = OLD.starts_at AND e.session_key = OLD.session_key AND e.kind IN ('booking', 'blocked') AND e.id <> OLD.id))
	ON CONFLICT (location_id, day, staffer_id) DO UPDATE SET
		booked_ms = booked_ms + excluded.booked_ms, blocked_ms = blocked_ms + excluded.blocked_ms, changes = changes + 1;
	INSERT INTO report_calendar_days (location_id, day, staffer_id, workspace_id, booked_ms, blocked_ms, changes)
	SELECT NEW.location_id, s.day, NEW.staffer_id, NEW.workspace_id,
		CASE WHEN NEW.kind = 'booking' THEN 1 * s.ms ELSE 0 END,
		CASE WHEN NEW.kind = 'blocked' THEN 1 * s.ms ELSE 0 END, 1
	FROM (
		SELECT d.day, max(0, min(NEW.ends_at, ((d.day + 1) * 86400000 - coalesce((select o.offset_ms from location_offsets o where o.location_id = NEW.location_id and o.from_ms <= ((d.day + 1) * 86400000 - coalesce((select o.offset_ms from location_offsets o where o.location_id = NEW.location_id and o.from_ms <= ((d.day + 1) * 86400000) order by o.from_ms desc limit 1), 0)) order by o.from_ms desc limit 1), 0))) - max(NEW.starts_at, ((d.day) * 86400000 - coalesce((select o.offset_ms from location_offsets o where o.location_id = NEW.location_id and o.from_ms <= ((d.day) * 86400000 - coalesce((select o.offset_ms from location_offsets o where o.location_id = NEW.location_id and o.from_ms <= ((d.day) * 86400000) order by o.from_ms desc limit 1), 0)) order by o.from_ms desc limit 1), 0)))) AS ms
		FROM (
			SELECT ((NEW.starts_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = NEW.location_id and o.from_ms <= (NEW.starts_at) order by o.from_ms desc limit 1), 0)) / 86400000 + t.i AS day
			FROM report_day_steps t
			WHERE t.i <= ((NEW.ends_at - 1) + coalesce((select o.offset_ms from location_offsets o where o.location_id = NEW.location_id and o.from_ms <= (NEW.ends_at - 1) order by o.from_ms desc limit 1), 0)) / 86400000 - ((NEW.starts_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = NEW.location_id and o.from_ms <= (NEW.starts_at) order by o.from_ms desc limit 1), 0)) / 86400000
		) d
	) s
	WHERE NEW.staffer_id IS NOT NULL AND NEW.kind IN ('booking', 'blocked') AND NEW.ends_at > NEW.starts_at AND (NEW.session_key IS NULL OR NOT EXISTS (SELECT 1 FROM calendar_entries e WHERE e.staffer_id = NEW.staffer_id AND e.starts_at = NEW.starts_at AND e.session_key = NEW.session_key AND e.kind IN ('booking', 'blocked') AND e.id <> NEW.id))
	ON CONFLICT (location_id, day, staffer_id) DO UPDATE SET
		booked_ms = booked_ms + excluded.booked_ms, blocked_ms = blocked_ms + excluded.blocked_ms, changes = changes + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `report_bookings_on_update` AFTER UPDATE OF `start_at`, `location_id`, `customer_id`, `is_canceled`, `cancel_reason`, `canceled_at`, `cancel_charges_fee` ON `bookings`
WHEN coalesce((select w.placement from workspaces w where w.id = NEW.workspace_id), 'open') not in ('moving_in', 'moved') AND (OLD.start_at IS NOT NEW.start_at OR OLD.location_id IS NOT NEW.location_id OR OLD.customer_id IS NOT NEW.customer_id OR OLD.is_canceled IS NOT NEW.is_canceled OR OLD.cancel_reason IS NOT NEW.cancel_reason OR OLD.canceled_at IS NOT NEW.canceled_at OR OLD.cancel_charges_fee IS NOT NEW.cancel_charges_fee)
BEGIN
	INSERT INTO report_booking_days (location_id, dim, day, key, workspace_id, bookings, didnt_come, late_cancels, fees, changes)
	SELECT OLD.location_id, 'service', ((OLD.start_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = OLD.location_id and o.from_ms <= (OLD.start_at) order by o.from_ms desc limit 1), 0)) / 86400000, s.k, OLD.workspace_id,
		-1 * (OLD.is_canceled = 0 OR (OLD.is_canceled = 1 AND coalesce(OLD.cancel_reason, '') = 'didnt_come') OR (OLD.is_canceled = 1 AND coalesce(OLD.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (OLD.cancel_charges_fee = 1 OR coalesce(OLD.canceled_at, 0) >= OLD.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = OLD.id), 1440)))), -1 * (OLD.is_canceled = 1 AND coalesce(OLD.cancel_reason, '') = 'didnt_come'), -1 * (OLD.is_canceled = 1 AND coalesce(OLD.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (OLD.cancel_charges_fee = 1 OR coalesce(OLD.canceled_at, 0) >= OLD.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = OLD.id), 1440))), 0, 1
	FROM (SELECT DISTINCT bs.service_id AS k FROM booking_services bs WHERE bs.booking_id = OLD.id) s
	WHERE true
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		bookings = bookings + excluded.bookings, didnt_come = didnt_come + excluded.didnt_come,
		late_cancels = late_cancels + excluded.late_cancels, changes = changes + 1;
	INSERT INTO report_booking_days (location_id, dim, day, key, workspace_id, bookings, didnt_come, late_cancels, fees, changes)
	SELECT OLD.location_id, 'staffer', ((OLD.start_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = OLD.location_id and o.from_ms <= (OLD.start_at) order by o.from_ms desc limit 1), 0)) / 86400000, s.k, OLD.workspace_id,
		-1 * (OLD.is_canceled = 0 OR (OLD.is_canceled = 1 AND coalesce(OLD.cancel_reason, '') = 'didnt_come') OR (OLD.is_canceled = 1 AND coalesce(OLD.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (OLD.cancel_charges_fee = 1 OR coalesce(OLD.canceled_at, 0) >= OLD.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = OLD.id), 1440)))), -1 * (OLD.is_canceled = 1 AND coalesce(OLD.cancel_reason, '') = 'didnt_come'), -1 * (OLD.is_canceled = 1 AND coalesce(OLD.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (OLD.cancel_charges_fee = 1 OR coalesce(OLD.canceled_at, 0) >= OLD.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = OLD.id), 1440))), 0, 1
	FROM (SELECT DISTINCT bs.staffer_id AS k FROM booking_services bs WHERE bs.booking_id = OLD.id) s
	WHERE true
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		bookings = bookings + excluded.bookings, didnt_come = didnt_come + excluded.didnt_come,
		late_cancels = late_cancels + excluded.late_cancels, changes = changes + 1;
	INSERT INTO report_booking_days (location_id, dim, day, key, workspace_id, bookings, didnt_come, late_cancels, fees, changes)
	SELECT OLD.location_id, 'customer', ((OLD.start_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = OLD.location_id and o.from_ms <= (OLD.start_at) order by o.from_ms desc limit 1), 0)) / 86400000, OLD.customer_id, OLD.workspace_id,
		-1 * (OLD.is_canceled = 0 OR (OLD.is_canceled = 1 AND coalesce(OLD.cancel_reason, '') = 'didnt_come') OR (OLD.is_canceled = 1 AND coalesce(OLD.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (OLD.cancel_charges_fee = 1 OR coalesce(OLD.canceled_at, 0) >= OLD.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = OLD.id), 1440)))), -1 * (OLD.is_canceled = 1 AND coalesce(OLD.cancel_reason, '') = 'didnt_come'), -1 * (OLD.is_canceled = 1 AND coalesce(OLD.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (OLD.cancel_charges_fee = 1 OR coalesce(OLD.canceled_at, 0) >= OLD.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = OLD.id), 1440))), 0, 1
	FROM (SELECT 1) s
	WHERE EXISTS (SELECT 1 FROM booking_services bs WHERE bs.booking_id = OLD.id)
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		bookings = bookings + excluded.bookings, didnt_come = didnt_come + excluded.didnt_come,
		late_cancels = late_cancels + excluded.late_cancels, changes = changes + 1;
	INSERT INTO report_booking_days (location_id, dim, day, key, workspace_id, bookings, didnt_come, late_cancels, fees, changes)
	SELECT NEW.location_id, 'service', ((NEW.start_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = NEW.location_id and o.from_ms <= (NEW.start_at) order by o.from_ms desc limit 1), 0)) / 86400000, s.k, NEW.workspace_id,
		1 * (NEW.is_canceled = 0 OR (NEW.is_canceled = 1 AND coalesce(NEW.cancel_reason, '') = 'didnt_come') OR (NEW.is_canceled = 1 AND coalesce(NEW.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (NEW.cancel_charges_fee = 1 OR coalesce(NEW.canceled_at, 0) >= NEW.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = NEW.id), 1440)))), 1 * (NEW.is_canceled = 1 AND coalesce(NEW.cancel_reason, '') = 'didnt_come'), 1 * (NEW.is_canceled = 1 AND coalesce(NEW.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (NEW.cancel_charges_fee = 1 OR coalesce(NEW.canceled_at, 0) >= NEW.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = NEW.id), 1440))), 0, 1
	FROM (SELECT DISTINCT bs.service_id AS k FROM booking_services bs WHERE bs.booking_id = NEW.id) s
	WHERE true
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		bookings = bookings + excluded.bookings, didnt_come = didnt_come + excluded.didnt_come,
		late_cancels = late_cancels + excluded.late_cancels, changes = changes + 1;
	INSERT INTO report_booking_days (location_id, dim, day, key, workspace_id, bookings, didnt_come, late_cancels, fees, changes)
	SELECT NEW.location_id, 'staffer', ((NEW.start_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = NEW.location_id and o.from_ms <= (NEW.start_at) order by o.from_ms desc limit 1), 0)) / 86400000, s.k, NEW.workspace_id,
		1 * (NEW.is_canceled = 0 OR (NEW.is_canceled = 1 AND coalesce(NEW.cancel_reason, '') = 'didnt_come') OR (NEW.is_canceled = 1 AND coalesce(NEW.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (NEW.cancel_charges_fee = 1 OR coalesce(NEW.canceled_at, 0) >= NEW.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = NEW.id), 1440)))), 1 * (NEW.is_canceled = 1 AND coalesce(NEW.cancel_reason, '') = 'didnt_come'), 1 * (NEW.is_canceled = 1 AND coalesce(NEW.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (NEW.cancel_charges_fee = 1 OR coalesce(NEW.canceled_at, 0) >= NEW.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = NEW.id), 1440))), 0, 1
	FROM (SELECT DISTINCT bs.staffer_id AS k FROM booking_services bs WHERE bs.booking_id = NEW.id) s
	WHERE true
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		bookings = bookings + excluded.bookings, didnt_come = didnt_come + excluded.didnt_come,
		late_cancels = late_cancels + excluded.late_cancels, changes = changes + 1;
	INSERT INTO report_booking_days (location_id, dim, day, key, workspace_id, bookings, didnt_come, late_cancels, fees, changes)
	SELECT NEW.location_id, 'customer', ((NEW.start_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = NEW.location_id and o.from_ms <= (NEW.start_at) order by o.from_ms desc limit 1), 0)) / 86400000, NEW.customer_id, NEW.workspace_id,
		1 * (NEW.is_canceled = 0 OR (NEW.is_canceled = 1 AND coalesce(NEW.cancel_reason, '') = 'didnt_come') OR (NEW.is_canceled = 1 AND coalesce(NEW.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (NEW.cancel_charges_fee = 1 OR coalesce(NEW.canceled_at, 0) >= NEW.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = NEW.id), 1440)))), 1 * (NEW.is_canceled = 1 AND coalesce(NEW.cancel_reason, '') = 'didnt_come'), 1 * (NEW.is_canceled = 1 AND coalesce(NEW.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (NEW.cancel_charges_fee = 1 OR coalesce(NEW.canceled_at, 0) >= NEW.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = NEW.id), 1440))), 0, 1
	FROM (SELECT 1) s
	WHERE EXISTS (SELECT 1 FROM booking_services bs WHERE bs.booking_id = NEW.id)
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		bookings = bookings + excluded.bookings, didnt_come = didnt_come + excluded.didnt_come,
		late_cancels = late_cancels + excluded.late_cancels, changes = changes + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `report_booking_services_on_insert` AFTER INSERT ON `booking_services`
WHEN coalesce((select w.placement from workspaces w where w.id = NEW.workspace_id), 'open') not in ('moving_in', 'moved')
BEGIN
	INSERT INTO report_booking_days (location_id, dim, day, key, workspace_id, bookings, didnt_come, late_cancels, fees, changes)
	SELECT b.location_id, 'service', ((b.start_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (b.start_at) order by o.from_ms desc limit 1), 0)) / 86400000, NEW.service_id, b.workspace_id,
		1 * (b.is_canceled = 0 OR (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') = 'didnt_come') OR (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (b.cancel_charges_fee = 1 OR coalesce(b.canceled_at, 0) >= b.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = b.id), 1440)))), 1 * (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') = 'didnt_come'), 1 * (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (b.cancel_charges_fee = 1 OR coalesce(b.canceled_at, 0) >= b.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = b.id), 1440))), 0, 1
	FROM bookings b
	WHERE b.id = NEW.booking_id AND NOT EXISTS (SELECT 1 FROM booking_services o WHERE o.booking_id = NEW.booking_id AND +o.service_id = NEW.service_id AND o.id <> NEW.id)
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		bookings = bookings + excluded.bookings, didnt_come = didnt_come + excluded.didnt_come,
		late_cancels = late_cancels + excluded.late_cancels, changes = changes + 1;
	INSERT INTO report_booking_days (location_id, dim, day, key, workspace_id, bookings, didnt_come, late_cancels, fees, changes)
	SELECT b.location_id, 'staffer', ((b.start_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (b.start_at) order by o.from_ms desc limit 1), 0)) / 86400000, NEW.staffer_id, b.workspace_id,
		1 * (b.is_canceled = 0 OR (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') = 'didnt_come') OR (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (b.cancel_charges_fee = 1 OR coalesce(b.canceled_at, 0) >= b.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = b.id), 1440)))), 1 * (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') = 'didnt_come'), 1 * (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (b.cancel_charges_fee = 1 OR coalesce(b.canceled_at, 0) >= b.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = b.id), 1440))), 0, 1
	FROM bookings b
	WHERE b.id = NEW.booking_id AND NOT EXISTS (SELECT 1 FROM booking_services o WHERE o.booking_id = NEW.booking_id AND +o.staffer_id = NEW.staffer_id AND o.id <> NEW.id)
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		bookings = bookings + excluded.bookings, didnt_come = didnt_come + excluded.didnt_come,
		late_cancels = late_cancels + excluded.late_cancels, changes = changes + 1;
	INSERT INTO report_booking_days (location_id, dim, day, key, workspace_id, bookings, didnt_come, late_cancels, fees, changes)
	SELECT b.location_id, 'customer', ((b.start_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (b.start_at) order by o.from_ms desc limit 1), 0)) / 86400000, b.customer_id, b.workspace_id,
		1 * (b.is_canceled = 0 OR (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') = 'didnt_come') OR (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (b.cancel_charges_fee = 1 OR coalesce(b.canceled_at, 0) >= b.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = b.id), 1440)))), 1 * (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') = 'didnt_come'), 1 * (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (b.cancel_charges_fee = 1 OR coalesce(b.canceled_at, 0) >= b.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = b.id), 1440))), 0, 1
	FROM bookings b
	WHERE b.id = NEW.booking_id AND NOT EXISTS (SELECT 1 FROM booking_services o WHERE o.booking_id = NEW.booking_id AND o.id <> NEW.id)
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		bookings = bookings + excluded.bookings, didnt_come = didnt_come + excluded.didnt_come,
		late_cancels = late_cancels + excluded.late_cancels, changes = changes + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `report_booking_services_on_delete` AFTER DELETE ON `booking_services`
WHEN coalesce((select w.placement from workspaces w where w.id = OLD.workspace_id), 'open') not in ('moving_in', 'moved')
BEGIN
	INSERT INTO report_booking_days (location_id, dim, day, key, workspace_id, bookings, didnt_come, late_cancels, fees, changes)
	SELECT b.location_id, 'service', ((b.start_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (b.start_at) order by o.from_ms desc limit 1), 0)) / 86400000, OLD.service_id, b.workspace_id,
		-1 * (b.is_canceled = 0 OR (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') = 'didnt_come') OR (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (b.cancel_charges_fee = 1 OR coalesce(b.canceled_at, 0) >= b.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = b.id), 1440)))), -1 * (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') = 'didnt_come'), -1 * (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (b.cancel_charges_fee = 1 OR coalesce(b.canceled_at, 0) >= b.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = b.id), 1440))), 0, 1
	FROM bookings b
	WHERE b.id = OLD.booking_id AND NOT EXISTS (SELECT 1 FROM booking_services o WHERE o.booking_id = OLD.booking_id AND +o.service_id = OLD.service_id AND o.id <> OLD.id)
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		bookings = bookings + excluded.bookings, didnt_come = didnt_come + excluded.didnt_come,
		late_cancels = late_cancels + excluded.late_cancels, changes = changes + 1;
	INSERT INTO report_booking_days (location_id, dim, day, key, workspace_id, bookings, didnt_come, late_cancels, fees, changes)
	SELECT b.location_id, 'staffer', ((b.start_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (b.start_at) order by o.from_ms desc limit 1), 0)) / 86400000, OLD.staffer_id, b.workspace_id,
		-1 * (b.is_canceled = 0 OR (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') = 'didnt_come') OR (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (b.cancel_charges_fee = 1 OR coalesce(b.canceled_at, 0) >= b.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = b.id), 1440)))), -1 * (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') = 'didnt_come'), -1 * (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (b.cancel_charges_fee = 1 OR coalesce(b.canceled_at, 0) >= b.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = b.id), 1440))), 0, 1
	FROM bookings b
	WHERE b.id = OLD.booking_id AND NOT EXISTS (SELECT 1 FROM booking_services o WHERE o.booking_id = OLD.booking_id AND +o.staffer_id = OLD.staffer_id AND o.id <> OLD.id)
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		bookings = bookings + excluded.bookings, didnt_come = didnt_come + excluded.didnt_come,
		late_cancels = late_cancels + excluded.late_cancels, changes = changes + 1;
	INSERT INTO report_booking_days (location_id, dim, day, key, workspace_id, bookings, didnt_come, late_cancels, fees, changes)
	SELECT b.location_id, 'customer', ((b.start_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (b.start_at) order by o.from_ms desc limit 1), 0)) / 86400000, b.customer_id, b.workspace_id,
		-1 * (b.is_canceled = 0 OR (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') = 'didnt_come') OR (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (b.cancel_charges_fee = 1 OR coalesce(b.canceled_at, 0) >= b.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = b.id), 1440)))), -1 * (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') = 'didnt_come'), -1 * (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (b.cancel_charges_fee = 1 OR coalesce(b.canceled_at, 0) >= b.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = b.id), 1440))), 0, 1
	FROM bookings b
	WHERE b.id = OLD.booking_id AND NOT EXISTS (SELECT 1 FROM booking_services o WHERE o.booking_id = OLD.booking_id AND o.id <> OLD.id)
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		bookings = bookings + excluded.bookings, didnt_come = didnt_come + excluded.didnt_come,
		late_cancels = late_cancels + excluded.late_cancels, changes = changes + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `report_booking_services_on_update` AFTER UPDATE OF `service_id`, `staffer_id` ON `booking_services`
WHEN coalesce((select w.placement from workspaces w where w.id = NEW.workspace_id), 'open') not in ('moving_in', 'moved') AND (OLD.service_id IS NOT NEW.service_id OR OLD.staffer_id IS NOT NEW.staffer_id)
BEGIN
	INSERT INTO report_booking_days (location_id, dim, day, key, workspace_id, bookings, didnt_come, late_cancels, fees, changes)
	SELECT b.location_id, 'service', ((b.start_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (b.start_at) order by o.from_ms desc limit 1), 0)) / 86400000, OLD.service_id, b.workspace_id,
		-1 * (b.is_canceled = 0 OR (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') = 'didnt_come') OR (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (b.cancel_charges_fee = 1 OR coalesce(b.canceled_at, 0) >= b.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = b.id), 1440)))), -1 * (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') = 'didnt_come'), -1 * (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (b.cancel_charges_fee = 1 OR coalesce(b.canceled_at, 0) >= b.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = b.id), 1440))), 0, 1
	FROM bookings b
	WHERE b.id = OLD.booking_id AND NOT EXISTS (SELECT 1 FROM booking_services o WHERE o.booking_id = OLD.booking_id AND +o.service_id = OLD.service_id AND o.id <> OLD.id)
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		bookings = bookings + excluded.bookings, didnt_come = didnt_come + excluded.didnt_come,
		late_cancels = late_cancels + excluded.late_cancels, changes = changes + 1;
	INSERT INTO report_booking_days (location_id, dim, day, key, workspace_id, bookings, didnt_come, late_cancels, fees, changes)
	SELECT b.location_id, 'staffer', ((b.start_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (b.start_at) order by o.from_ms desc limit 1), 0)) / 86400000, OLD.staffer_id, b.workspace_id,
		-1 * (b.is_canceled = 0 OR (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') = 'didnt_come') OR (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (b.cancel_charges_fee = 1 OR coalesce(b.canceled_at, 0) >= b.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = b.id), 1440)))), -1 * (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') = 'didnt_come'), -1 * (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (b.cancel_charges_fee = 1 OR coalesce(b.canceled_at, 0) >= b.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = b.id), 1440))), 0, 1
	FROM bookings b
	WHERE b.id = OLD.booking_id AND NOT EXISTS (SELECT 1 FROM booking_services o WHERE o.booking_id = OLD.booking_id AND +o.staffer_id = OLD.staffer_id AND o.id <> OLD.id)
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		bookings = bookings + excluded.bookings, didnt_come = didnt_come + excluded.didnt_come,
		late_cancels = late_cancels + excluded.late_cancels, changes = changes + 1;
	INSERT INTO report_booking_days (location_id, dim, day, key, workspace_id, bookings, didnt_come, late_cancels, fees, changes)
	SELECT b.location_id, 'service', ((b.start_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (b.start_at) order by o.from_ms desc limit 1), 0)) / 86400000, NEW.service_id, b.workspace_id,
		1 * (b.is_canceled = 0 OR (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') = 'didnt_come') OR (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (b.cancel_charges_fee = 1 OR coalesce(b.canceled_at, 0) >= b.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = b.id), 1440)))), 1 * (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') = 'didnt_come'), 1 * (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (b.cancel_charges_fee = 1 OR coalesce(b.canceled_at, 0) >= b.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = b.id), 1440))), 0, 1
	FROM bookings b
	WHERE b.id = NEW.booking_id AND NOT EXISTS (SELECT 1 FROM booking_services o WHERE o.booking_id = NEW.booking_id AND +o.service_id = NEW.service_id AND o.id <> NEW.id)
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		bookings = bookings + excluded.bookings, didnt_come = didnt_come + excluded.didnt_come,
		late_cancels = late_cancels + excluded.late_cancels, changes = changes + 1;
	INSERT INTO report_booking_days (location_id, dim, day, key, workspace_id, bookings, didnt_come, late_cancels, fees, changes)
	SELECT b.location_id, 'staffer', ((b.start_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (b.start_at) order by o.from_ms desc limit 1), 0)) / 86400000, NEW.staffer_id, b.workspace_id,
		1 * (b.is_canceled = 0 OR (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') = 'didnt_come') OR (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (b.cancel_charges_fee = 1 OR coalesce(b.canceled_at, 0) >= b.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = b.id), 1440)))), 1 * (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') = 'didnt_come'), 1 * (b.is_canceled = 1 AND coalesce(b.cancel_reason, '') NOT IN ('didnt_come', 'spam', 'wrong_order') AND (b.cancel_charges_fee = 1 OR coalesce(b.canceled_at, 0) >= b.start_at - 60000 * coalesce((SELECT json_extract(bp.policy, '$.late_cancel.window_minutes') FROM booking_payments bp WHERE bp.booking_id = b.id), 1440))), 0, 1
	FROM bookings b
	WHERE b.id = NEW.booking_id AND NOT EXISTS (SELECT 1 FROM booking_services o WHERE o.booking_id = NEW.booking_id AND +o.staffer_id = NEW.staffer_id AND o.id <> NEW.id)
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		bookings = bookings + excluded.bookings, didnt_come = didnt_come + excluded.didnt_come,
		late_cancels = late_cancels + excluded.late_cancels, changes = changes + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `report_fees_on_update` AFTER UPDATE OF `status` ON `payments`
WHEN NEW.status = 'succeeded' AND OLD.status <> 'succeeded' AND NEW.kind IN ('late_cancel_fee', 'no_show_fee') AND coalesce((select w.placement from workspaces w where w.id = NEW.workspace_id), 'open') not in ('moving_in', 'moved')
BEGIN
	INSERT INTO report_revenue_days (location_id, dim, day, key, workspace_id, fees, packages_sold, changes)
	SELECT b.location_id, 'day', ((NEW.updated_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (NEW.updated_at) order by o.from_ms desc limit 1), 0)) / 86400000, '', b.workspace_id, NEW.amount, 0, 1
	FROM bookings b
	WHERE b.id = NEW.booking_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		fees = fees + excluded.fees, packages_sold = packages_sold + excluded.packages_sold, changes = changes + 1;
	INSERT INTO report_revenue_days (location_id, dim, day, key, workspace_id, fees, packages_sold, changes)
	SELECT b.location_id, 'staffer', ((NEW.updated_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (NEW.updated_at) order by o.from_ms desc limit 1), 0)) / 86400000, coalesce((SELECT bs.staffer_id FROM booking_services bs WHERE bs.booking_id = b.id ORDER BY bs.position LIMIT 1), ''), b.workspace_id, NEW.amount, 0, 1
	FROM bookings b
	WHERE b.id = NEW.booking_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		fees = fees + excluded.fees, packages_sold = packages_sold + excluded.packages_sold, changes = changes + 1;
	INSERT INTO report_revenue_days (location_id, dim, day, key, workspace_id, fees, packages_sold, changes)
	SELECT b.location_id, 'service', ((NEW.updated_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (NEW.updated_at) order by o.from_ms desc limit 1), 0)) / 86400000, coalesce((SELECT bs.service_id FROM booking_services bs WHERE bs.booking_id = b.id ORDER BY bs.position LIMIT 1), ''), b.workspace_id, NEW.amount, 0, 1
	FROM bookings b
	WHERE b.id = NEW.booking_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		fees = fees + excluded.fees, packages_sold = packages_sold + excluded.packages_sold, changes = changes + 1;
	INSERT INTO report_revenue_days (location_id, dim, day, key, workspace_id, fees, packages_sold, changes)
	SELECT b.location_id, 'payment_method', ((NEW.updated_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (NEW.updated_at) order by o.from_ms desc limit 1), 0)) / 86400000, 'online_account', b.workspace_id, NEW.amount, 0, 1
	FROM bookings b
	WHERE b.id = NEW.booking_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		fees = fees + excluded.fees, packages_sold = packages_sold + excluded.packages_sold, changes = changes + 1;
	INSERT INTO report_booking_days (location_id, dim, day, key, workspace_id, bookings, didnt_come, late_cancels, fees, changes)
	SELECT b.location_id, 'service', ((b.start_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (b.start_at) order by o.from_ms desc limit 1), 0)) / 86400000, coalesce((SELECT bs.service_id FROM booking_services bs WHERE bs.booking_id = b.id ORDER BY bs.position LIMIT 1), ''), b.workspace_id, 0, 0, 0, NEW.amount, 1
	FROM bookings b
	WHERE b.id = NEW.booking_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET fees = fees + excluded.fees, changes = changes + 1;
	INSERT INTO report_booking_days (location_id, dim, day, key, workspace_id, bookings, didnt_come, late_cancels, fees, changes)
	SELECT b.location_id, 'staffer', ((b.start_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (b.start_at) order by o.from_ms desc limit 1), 0)) / 86400000, coalesce((SELECT bs.staffer_id FROM booking_services bs WHERE bs.booking_id = b.id ORDER BY bs.position LIMIT 1), ''), b.workspace_id, 0, 0, 0, NEW.amount, 1
	FROM bookings b
	WHERE b.id = NEW.booking_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET fees = fees + excluded.fees, changes = changes + 1;
	INSERT INTO report_booking_days (location_id, dim, day, key, workspace_id, bookings, didnt_come, late_cancels, fees, changes)
	SELECT b.location_id, 'customer', ((b.start_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (b.start_at) order by o.from_ms desc limit 1), 0)) / 86400000, b.customer_id, b.workspace_id, 0, 0, 0, NEW.amount, 1
	FROM bookings b
	WHERE b.id = NEW.booking_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET fees = fees + excluded.fees, changes = changes + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `report_fees_on_insert` AFTER INSERT ON `payments`
WHEN NEW.status = 'succeeded' AND NEW.kind IN ('late_cancel_fee', 'no_show_fee') AND coalesce((select w.placement from workspaces w where w.id = NEW.workspace_id), 'open') not in ('moving_in', 'moved')
BEGIN
	INSERT INTO report_revenue_days (location_id, dim, day, key, workspace_id, fees, packages_sold, changes)
	SELECT b.location_id, 'day', ((NEW.updated_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (NEW.updated_at) order by o.from_ms desc limit 1), 0)) / 86400000, '', b.workspace_id, NEW.amount, 0, 1
	FROM bookings b
	WHERE b.id = NEW.booking_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		fees = fees + excluded.fees, packages_sold = packages_sold + excluded.packages_sold, changes = changes + 1;
	INSERT INTO report_revenue_days (location_id, dim, day, key, workspace_id, fees, packages_sold, changes)
	SELECT b.location_id, 'staffer', ((NEW.updated_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (NEW.updated_at) order by o.from_ms desc limit 1), 0)) / 86400000, coalesce((SELECT bs.staffer_id FROM booking_services bs WHERE bs.booking_id = b.id ORDER BY bs.position LIMIT 1), ''), b.workspace_id, NEW.amount, 0, 1
	FROM bookings b
	WHERE b.id = NEW.booking_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		fees = fees + excluded.fees, packages_sold = packages_sold + excluded.packages_sold, changes = changes + 1;
	INSERT INTO report_revenue_days (location_id, dim, day, key, workspace_id, fees, packages_sold, changes)
	SELECT b.location_id, 'service', ((NEW.updated_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (NEW.updated_at) order by o.from_ms desc limit 1), 0)) / 86400000, coalesce((SELECT bs.service_id FROM booking_services bs WHERE bs.booking_id = b.id ORDER BY bs.position LIMIT 1), ''), b.workspace_id, NEW.amount, 0, 1
	FROM bookings b
	WHERE b.id = NEW.booking_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		fees = fees + excluded.fees, packages_sold = packages_sold + excluded.packages_sold, changes = changes + 1;
	INSERT INTO report_revenue_days (location_id, dim, day, key, workspace_id, fees, packages_sold, changes)
	SELECT b.location_id, 'payment_method', ((NEW.updated_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (NEW.updated_at) order by o.from_ms desc limit 1), 0)) / 86400000, 'online_account', b.workspace_id, NEW.amount, 0, 1
	FROM bookings b
	WHERE b.id = NEW.booking_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		fees = fees + excluded.fees, packages_sold = packages_sold + excluded.packages_sold, changes = changes + 1;
	INSERT INTO report_booking_days (location_id, dim, day, key, workspace_id, bookings, didnt_come, late_cancels, fees, changes)
	SELECT b.location_id, 'service', ((b.start_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (b.start_at) order by o.from_ms desc limit 1), 0)) / 86400000, coalesce((SELECT bs.service_id FROM booking_services bs WHERE bs.booking_id = b.id ORDER BY bs.position LIMIT 1), ''), b.workspace_id, 0, 0, 0, NEW.amount, 1
	FROM bookings b
	WHERE b.id = NEW.booking_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET fees = fees + excluded.fees, changes = changes + 1;
	INSERT INTO report_booking_days (location_id, dim, day, key, workspace_id, bookings, didnt_come, late_cancels, fees, changes)
	SELECT b.location_id, 'staffer', ((b.start_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (b.start_at) order by o.from_ms desc limit 1), 0)) / 86400000, coalesce((SELECT bs.staffer_id FROM booking_services bs WHERE bs.booking_id = b.id ORDER BY bs.position LIMIT 1), ''), b.workspace_id, 0, 0, 0, NEW.amount, 1
	FROM bookings b
	WHERE b.id = NEW.booking_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET fees = fees + excluded.fees, changes = changes + 1;
	INSERT INTO report_booking_days (location_id, dim, day, key, workspace_id, bookings, didnt_come, late_cancels, fees, changes)
	SELECT b.location_id, 'customer', ((b.start_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (b.start_at) order by o.from_ms desc limit 1), 0)) / 86400000, b.customer_id, b.workspace_id, 0, 0, 0, NEW.amount, 1
	FROM bookings b
	WHERE b.id = NEW.booking_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET fees = fees + excluded.fees, changes = changes + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `report_kept_fees_on_update` AFTER UPDATE OF `fee_kept` ON `booking_payments`
WHEN coalesce(NEW.fee_kept, 0) <> coalesce(OLD.fee_kept, 0) AND coalesce((select w.placement from workspaces w where w.id = NEW.workspace_id), 'open') not in ('moving_in', 'moved')
BEGIN
	INSERT INTO report_revenue_days (location_id, dim, day, key, workspace_id, fees, packages_sold, changes)
	SELECT b.location_id, 'day', ((coalesce(NEW.settled_at, NEW.created_at)) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (coalesce(NEW.settled_at, NEW.created_at)) order by o.from_ms desc limit 1), 0)) / 86400000, '', b.workspace_id, (coalesce(NEW.fee_kept, 0) - coalesce(OLD.fee_kept, 0)), 0, 1
	FROM bookings b
	WHERE b.id = NEW.booking_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		fees = fees + excluded.fees, packages_sold = packages_sold + excluded.packages_sold, changes = changes + 1;
	INSERT INTO report_revenue_days (location_id, dim, day, key, workspace_id, fees, packages_sold, changes)
	SELECT b.location_id, 'staffer', ((coalesce(NEW.settled_at, NEW.created_at)) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (coalesce(NEW.settled_at, NEW.created_at)) order by o.from_ms desc limit 1), 0)) / 86400000, coalesce((SELECT bs.staffer_id FROM booking_services bs WHERE bs.booking_id = b.id ORDER BY bs.position LIMIT 1), ''), b.workspace_id, (coalesce(NEW.fee_kept, 0) - coalesce(OLD.fee_kept, 0)), 0, 1
	FROM bookings b
	WHERE b.id = NEW.booking_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		fees = fees + excluded.fees, packages_sold = packages_sold + excluded.packages_sold, changes = changes + 1;
	INSERT INTO report_revenue_days (location_id, dim, day, key, workspace_id, fees, packages_sold, changes)
	SELECT b.location_id, 'service', ((coalesce(NEW.settled_at, NEW.created_at)) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (coalesce(NEW.settled_at, NEW.created_at)) order by o.from_ms desc limit 1), 0)) / 86400000, coalesce((SELECT bs.service_id FROM booking_services bs WHERE bs.booking_id = b.id ORDER BY bs.position LIMIT 1), ''), b.workspace_id, (coalesce(NEW.fee_kept, 0) - coalesce(OLD.fee_kept, 0)), 0, 1
	FROM bookings b
	WHERE b.id = NEW.booking_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		fees = fees + excluded.fees, packages_sold = packages_sold + excluded.packages_sold, changes = changes + 1;
	INSERT INTO report_revenue_days (location_id, dim, day, key, workspace_id, fees, packages_sold, changes)
	SELECT b.location_id, 'payment_method', ((coalesce(NEW.settled_at, NEW.created_at)) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (coalesce(NEW.settled_at, NEW.created_at)) order by o.from_ms desc limit 1), 0)) / 86400000, 'online_account', b.workspace_id, (coalesce(NEW.fee_kept, 0) - coalesce(OLD.fee_kept, 0)), 0, 1
	FROM bookings b
	WHERE b.id = NEW.booking_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		fees = fees + excluded.fees, packages_sold = packages_sold + excluded.packages_sold, changes = changes + 1;
	INSERT INTO report_booking_days (location_id, dim, day, key, workspace_id, bookings, didnt_come, late_cancels, fees, changes)
	SELECT b.location_id, 'service', ((b.start_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (b.start_at) order by o.from_ms desc limit 1), 0)) / 86400000, coalesce((SELECT bs.service_id FROM booking_services bs WHERE bs.booking_id = b.id ORDER BY bs.position LIMIT 1), ''), b.workspace_id, 0, 0, 0, (coalesce(NEW.fee_kept, 0) - coalesce(OLD.fee_kept, 0)), 1
	FROM bookings b
	WHERE b.id = NEW.booking_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET fees = fees + excluded.fees, changes = changes + 1;
	INSERT INTO report_booking_days (location_id, dim, day, key, workspace_id, bookings, didnt_come, late_cancels, fees, changes)
	SELECT b.location_id, 'staffer', ((b.start_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (b.start_at) order by o.from_ms desc limit 1), 0)) / 86400000, coalesce((SELECT bs.staffer_id FROM booking_services bs WHERE bs.booking_id = b.id ORDER BY bs.position LIMIT 1), ''), b.workspace_id, 0, 0, 0, (coalesce(NEW.fee_kept, 0) - coalesce(OLD.fee_kept, 0)), 1
	FROM bookings b
	WHERE b.id = NEW.booking_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET fees = fees + excluded.fees, changes = changes + 1;
	INSERT INTO report_booking_days (location_id, dim, day, key, workspace_id, bookings, didnt_come, late_cancels, fees, changes)
	SELECT b.location_id, 'customer', ((b.start_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = b.location_id and o.from_ms <= (b.start_at) order by o.from_ms desc limit 1), 0)) / 86400000, b.customer_id, b.workspace_id, 0, 0, 0, (coalesce(NEW.fee_kept, 0) - coalesce(OLD.fee_kept, 0)), 1
	FROM bookings b
	WHERE b.id = NEW.booking_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET fees = fees + excluded.fees, changes = changes + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `report_renewals_on_update` AFTER UPDATE OF `status` ON `package_renewals`
WHEN NEW.status = 'succeeded' AND OLD.status <> 'succeeded' AND coalesce((select w.placement from workspaces w where w.id = NEW.workspace_id), 'open') not in ('moving_in', 'moved')
BEGIN
	INSERT INTO report_revenue_days (location_id, dim, day, key, workspace_id, fees, packages_sold, changes)
	SELECT cp.location_id, 'day', ((NEW.updated_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = cp.location_id and o.from_ms <= (NEW.updated_at) order by o.from_ms desc limit 1), 0)) / 86400000, '', cp.workspace_id, 0, NEW.amount, 1
	FROM customer_packages cp
	WHERE cp.id = NEW.customer_package_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		fees = fees + excluded.fees, packages_sold = packages_sold + excluded.packages_sold, changes = changes + 1;
	INSERT INTO report_revenue_days (location_id, dim, day, key, workspace_id, fees, packages_sold, changes)
	SELECT cp.location_id, 'staffer', ((NEW.updated_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = cp.location_id and o.from_ms <= (NEW.updated_at) order by o.from_ms desc limit 1), 0)) / 86400000, '', cp.workspace_id, 0, NEW.amount, 1
	FROM customer_packages cp
	WHERE cp.id = NEW.customer_package_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		fees = fees + excluded.fees, packages_sold = packages_sold + excluded.packages_sold, changes = changes + 1;
	INSERT INTO report_revenue_days (location_id, dim, day, key, workspace_id, fees, packages_sold, changes)
	SELECT cp.location_id, 'service', ((NEW.updated_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = cp.location_id and o.from_ms <= (NEW.updated_at) order by o.from_ms desc limit 1), 0)) / 86400000, '', cp.workspace_id, 0, NEW.amount, 1
	FROM customer_packages cp
	WHERE cp.id = NEW.customer_package_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		fees = fees + excluded.fees, packages_sold = packages_sold + excluded.packages_sold, changes = changes + 1;
	INSERT INTO report_revenue_days (location_id, dim, day, key, workspace_id, fees, packages_sold, changes)
	SELECT cp.location_id, 'payment_method', ((NEW.updated_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = cp.location_id and o.from_ms <= (NEW.updated_at) order by o.from_ms desc limit 1), 0)) / 86400000, 'online_account', cp.workspace_id, 0, NEW.amount, 1
	FROM customer_packages cp
	WHERE cp.id = NEW.customer_package_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		fees = fees + excluded.fees, packages_sold = packages_sold + excluded.packages_sold, changes = changes + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `report_renewals_on_insert` AFTER INSERT ON `package_renewals`
WHEN NEW.status = 'succeeded' AND coalesce((select w.placement from workspaces w where w.id = NEW.workspace_id), 'open') not in ('moving_in', 'moved')
BEGIN
	INSERT INTO report_revenue_days (location_id, dim, day, key, workspace_id, fees, packages_sold, changes)
	SELECT cp.location_id, 'day', ((NEW.updated_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = cp.location_id and o.from_ms <= (NEW.updated_at) order by o.from_ms desc limit 1), 0)) / 86400000, '', cp.workspace_id, 0, NEW.amount, 1
	FROM customer_packages cp
	WHERE cp.id = NEW.customer_package_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		fees = fees + excluded.fees, packages_sold = packages_sold + excluded.packages_sold, changes = changes + 1;
	INSERT INTO report_revenue_days (location_id, dim, day, key, workspace_id, fees, packages_sold, changes)
	SELECT cp.location_id, 'staffer', ((NEW.updated_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = cp.location_id and o.from_ms <= (NEW.updated_at) order by o.from_ms desc limit 1), 0)) / 86400000, '', cp.workspace_id, 0, NEW.amount, 1
	FROM customer_packages cp
	WHERE cp.id = NEW.customer_package_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		fees = fees + excluded.fees, packages_sold = packages_sold + excluded.packages_sold, changes = changes + 1;
	INSERT INTO report_revenue_days (location_id, dim, day, key, workspace_id, fees, packages_sold, changes)
	SELECT cp.location_id, 'service', ((NEW.updated_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = cp.location_id and o.from_ms <= (NEW.updated_at) order by o.from_ms desc limit 1), 0)) / 86400000, '', cp.workspace_id, 0, NEW.amount, 1
	FROM customer_packages cp
	WHERE cp.id = NEW.customer_package_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		fees = fees + excluded.fees, packages_sold = packages_sold + excluded.packages_sold, changes = changes + 1;
	INSERT INTO report_revenue_days (location_id, dim, day, key, workspace_id, fees, packages_sold, changes)
	SELECT cp.location_id, 'payment_method', ((NEW.updated_at) + coalesce((select o.offset_ms from location_offsets o where o.location_id = cp.location_id and o.from_ms <= (NEW.updated_at) order by o.from_ms desc limit 1), 0)) / 86400000, 'online_account', cp.workspace_id, 0, NEW.amount, 1
	FROM customer_packages cp
	WHERE cp.id = NEW.customer_package_id
	ON CONFLICT (location_id, dim, day, key) DO UPDATE SET
		fees = fees + excluded.fees, packages_sold = packages_sold + excluded.packages_sold, changes = changes + 1;
END;
