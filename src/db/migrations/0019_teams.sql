CREATE TABLE `team_members` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`team_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`role` text NOT NULL,
	`status` text NOT NULL,
	`payment_id` integer,
	`order_id` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`team_id`) REFERENCES `teams`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `team_members_team_idx` ON `team_members` (`team_id`,`status`);--> statement-breakpoint
CREATE INDEX `team_members_payment_idx` ON `team_members` (`payment_id`);--> statement-breakpoint
CREATE INDEX `team_members_user_idx` ON `team_members` (`user_id`);--> statement-breakpoint
CREATE TABLE `teams` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`product_id` integer NOT NULL,
	`starter_id` integer NOT NULL,
	`status` text NOT NULL,
	`price_cents` integer NOT NULL,
	`tax_cents` integer NOT NULL,
	`hold_cents` integer NOT NULL,
	`size` integer DEFAULT 2 NOT NULL,
	`expires_at` integer NOT NULL,
	`filled_at` integer,
	`ended_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`starter_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `teams_code_unique` ON `teams` (`code`);--> statement-breakpoint
CREATE UNIQUE INDEX `teams_one_open_per_starter` ON `teams` (`product_id`,`starter_id`) WHERE status in ('starting', 'open', 'joining');--> statement-breakpoint
CREATE INDEX `teams_status_expires_idx` ON `teams` (`status`,`expires_at`);--> statement-breakpoint
CREATE INDEX `teams_product_status_idx` ON `teams` (`product_id`,`status`);--> statement-breakpoint
CREATE TRIGGER `teams_insert_live` AFTER INSERT ON `teams` BEGIN INSERT INTO `live_events` (`topic`, `created_at`) VALUES ('team:' || NEW.`product_id`, unixepoch()); END;
--> statement-breakpoint
CREATE TRIGGER `teams_update_live` AFTER UPDATE ON `teams` BEGIN INSERT INTO `live_events` (`topic`, `created_at`) VALUES ('team:' || NEW.`product_id`, unixepoch()); END;
--> statement-breakpoint
CREATE TRIGGER `teams_insert_changes_storefront` AFTER INSERT ON `teams` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;
--> statement-breakpoint
CREATE TRIGGER `teams_update_changes_storefront` AFTER UPDATE ON `teams` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;
