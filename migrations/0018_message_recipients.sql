-- A booking made with a publishable key carries its own contact: its messages go to the e-mail
-- and first name its own request gave (none given: no e-mail), never to the customer's stored
-- e-mail, which anyone typing the customer's phone into the widget could otherwise reach or set.
-- Staff's bookings (own_contact 0, and every earlier one) follow the stored customer.
ALTER TABLE `bookings` ADD `own_contact` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `bookings` ADD `contact_first_name` text;
--> statement-breakpoint
ALTER TABLE `bookings` ADD `contact_email` text;
--> statement-breakpoint
-- The visitor (client address, hashed) whose write caused a message, through a publishable key
-- or a manage link: a visitor's messages of the last day are counted in the write that adds
-- one, and those past the daily bound are written skipped. Null for staff's writes.
ALTER TABLE `messages` ADD `visitor` text;
--> statement-breakpoint
CREATE INDEX `messages_visitor_idx` ON `messages` (`workspace_id`,`visitor`,`created_at`);
