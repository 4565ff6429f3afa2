-- Packages and memberships: templates, what each customer bought and its credits per period, which booked service a credit pays for, and a membership's charge per period.
CREATE TABLE `packages` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`price` integer NOT NULL,
	`currency` text NOT NULL,
	`credits` text NOT NULL,
	`valid_days` integer NOT NULL,
	`renews` text,
	`live` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `packages_workspace_created_idx` ON `packages` (`workspace_id`,`created_at`,`id`);
--> statement-breakpoint
CREATE TABLE `customer_packages` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`package_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`order_id` text NOT NULL,
	`order_line_id` text NOT NULL,
	`name` text NOT NULL,
	`price` integer NOT NULL,
	`currency` text NOT NULL,
	`valid_days` integer NOT NULL,
	`renews` text,
	`credit_lines` text NOT NULL,
	`status` text NOT NULL,
	`starts_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`period` integer DEFAULT 1 NOT NULL,
	`renewing` integer DEFAULT false NOT NULL,
	`past_due` integer DEFAULT false NOT NULL,
	`next_charge_at` integer,
	`provider_customer` text,
	`payment_method` text,
	`location_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`package_id`) REFERENCES `packages`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `customer_packages_customer_idx` ON `customer_packages` (`workspace_id`,`customer_id`,`created_at`,`id`);
--> statement-breakpoint
CREATE INDEX `customer_packages_order_idx` ON `customer_packages` (`order_id`);
--> statement-breakpoint
CREATE INDEX `customer_packages_due_idx` ON `customer_packages` (`next_charge_at`);
--> statement-breakpoint
CREATE TABLE `customer_package_credits` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`customer_package_id` text NOT NULL,
	`period` integer NOT NULL,
	`position` integer NOT NULL,
	`service_ids` text NOT NULL,
	`total` integer NOT NULL,
	`used` integer DEFAULT 0 NOT NULL,
	`reserved` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`customer_package_id`) REFERENCES `customer_packages`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "customer_package_credits_range" CHECK("customer_package_credits"."used" >= 0 and "customer_package_credits"."reserved" >= 0 and "customer_package_credits"."used" + "customer_package_credits"."reserved" <= "customer_package_credits"."total")
);
--> statement-breakpoint
CREATE INDEX `customer_package_credits_package_idx` ON `customer_package_credits` (`customer_package_id`,`period`,`position`);
--> statement-breakpoint
CREATE TABLE `package_credit_uses` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`booking_id` text NOT NULL,
	`booking_service_id` text NOT NULL,
	`customer_package_id` text NOT NULL,
	`credit_id` text NOT NULL,
	`count` integer NOT NULL,
	`state` text NOT NULL,
	`late_cancel_minutes` integer,
	`no_show_uses` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`credit_id`) REFERENCES `customer_package_credits`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `package_credit_uses_service_uq` ON `package_credit_uses` (`booking_service_id`);
--> statement-breakpoint
CREATE INDEX `package_credit_uses_booking_idx` ON `package_credit_uses` (`booking_id`);
--> statement-breakpoint
CREATE INDEX `package_credit_uses_package_idx` ON `package_credit_uses` (`customer_package_id`);
--> statement-breakpoint
CREATE TABLE `package_renewals` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`customer_package_id` text NOT NULL,
	`period` integer NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`status` text NOT NULL,
	`attempt` integer DEFAULT 1 NOT NULL,
	`provider_ref` text,
	`failure_reason` text,
	`refund_ref` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`customer_package_id`) REFERENCES `customer_packages`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `package_renewals_period_uq` ON `package_renewals` (`customer_package_id`,`period`);
--> statement-breakpoint
CREATE INDEX `package_renewals_pending_idx` ON `package_renewals` (`status`,`updated_at`);
