-- A booking made with a publishable key names its visitor (the key and client address, hashed,
-- as a reservation's holder): a visitor books at most so many bookings a day, counted in the
-- write that adds one. Staff's bookings (and every earlier one) have none.
ALTER TABLE `bookings` ADD `visitor` text;
--> statement-breakpoint
CREATE INDEX `bookings_visitor_idx` ON `bookings` (`workspace_id`,`visitor`,`created_at`);
