-- The salon's face on the booking pages: a workspace's brand (the name customers see, else
-- the location's; a logo; an accent colour the pages use on white, checked for contrast when
-- set), and each location's postal address and phone. All nullable: a workspace without a
-- brand and a location without an address show as before. A location's address is set or
-- cleared whole (line1, city, postal code and country together; line2 optional).
ALTER TABLE `workspaces` ADD `brand_name` text;
--> statement-breakpoint
ALTER TABLE `workspaces` ADD `brand_logo_url` text;
--> statement-breakpoint
ALTER TABLE `workspaces` ADD `brand_accent_color` text;
--> statement-breakpoint
ALTER TABLE `locations` ADD `address_line1` text;
--> statement-breakpoint
ALTER TABLE `locations` ADD `address_line2` text;
--> statement-breakpoint
ALTER TABLE `locations` ADD `address_city` text;
--> statement-breakpoint
ALTER TABLE `locations` ADD `address_postal_code` text;
--> statement-breakpoint
ALTER TABLE `locations` ADD `address_country` text;
--> statement-breakpoint
ALTER TABLE `locations` ADD `phone` text;
