-- Group sessions (seats). A service with `capacity` > 1 is a group service: bookings of it at one
-- start with one staffer share that staffer's time (a session) up to `capacity` seats. Each
-- booked service keeps its own calendar entry; entries of one session carry the same
-- `session_key` (the service and the start), the seats they take and the capacity the
-- service had when they were claimed, so slot search, the
-- calendar objects and the audit can count seats from the entries alone.
ALTER TABLE `services` ADD `capacity` integer NOT NULL DEFAULT 1;
--> statement-breakpoint
ALTER TABLE `calendar_entries` ADD `session_key` text;
--> statement-breakpoint
ALTER TABLE `calendar_entries` ADD `seats` integer NOT NULL DEFAULT 1;
--> statement-breakpoint
ALTER TABLE `calendar_entries` ADD `capacity` integer;
--> statement-breakpoint
-- GET /sessions: a location's booked services of one service in a time range.
CREATE INDEX `booking_services_service_idx` ON `booking_services` (`service_id`, `reserved_on`);
