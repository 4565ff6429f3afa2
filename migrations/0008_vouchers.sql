CREATE TABLE `vouchers` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`code` text NOT NULL,
	`template_id` text NOT NULL,
	`order_id` text NOT NULL,
	`order_line_id` text NOT NULL,
	`initial_amount` integer NOT NULL,
	`balance` integer NOT NULL,
	`status` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "vouchers_balance_range" CHECK("vouchers"."balance" >= 0 and "vouchers"."balance" <= "vouchers"."initial_amount")
);
--> statement-breakpoint
CREATE UNIQUE INDEX `vouchers_workspace_code_uq` ON `vouchers` (`workspace_id`,`code`);--> statement-breakpoint
CREATE INDEX `vouchers_order_idx` ON `vouchers` (`order_id`);--> statement-breakpoint
CREATE TABLE `voucher_payments` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`voucher_id` text NOT NULL,
	`order_id` text NOT NULL,
	`booking_id` text,
	`amount` integer NOT NULL,
	`created_at` integer NOT NULL,
	`reverted_at` integer,
	FOREIGN KEY (`voucher_id`) REFERENCES `vouchers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `voucher_payments_order_idx` ON `voucher_payments` (`order_id`);--> statement-breakpoint
CREATE INDEX `voucher_payments_voucher_idx` ON `voucher_payments` (`voucher_id`);
--> statement-breakpoint
ALTER TABLE `orders` ADD `closed_at` integer;--> statement-breakpoint
ALTER TABLE `orders` ADD `refund_reason` text;
