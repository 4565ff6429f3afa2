-- How many VEVENTs of an external calendar's last read text could not be read and were left out
-- (the rest of the calendar is busy time); 0 for every calendar read before this migration.
ALTER TABLE `external_calendars` ADD `skipped_events` integer DEFAULT 0 NOT NULL;
