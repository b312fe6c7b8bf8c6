CREATE TABLE `auction_maximums` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`auction_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`max_cents` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`auction_id`) REFERENCES `auctions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `auction_maximums_auction_idx` ON `auction_maximums` (`auction_id`,`id`);--> statement-breakpoint
CREATE INDEX `auction_maximums_user_idx` ON `auction_maximums` (`user_id`,`auction_id`);--> statement-breakpoint
CREATE TABLE `auctions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`product_id` integer NOT NULL,
	`starting_bid_cents` integer NOT NULL,
	`increment_cents` integer,
	`reserve_cents` integer,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`scheduled_end_at` integer NOT NULL,
	`keep_buy_now` integer DEFAULT false NOT NULL,
	`status` text DEFAULT 'scheduled' NOT NULL,
	`leader_id` integer,
	`current_price_cents` integer,
	`bid_count` integer DEFAULT 0 NOT NULL,
	`reserve_met` integer DEFAULT false NOT NULL,
	`winner_id` integer,
	`winner_order_id` integer,
	`payment_due_at` integer,
	`reason` text,
	`stock_reserved` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`leader_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`winner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `auctions_one_open_per_product` ON `auctions` (`product_id`) WHERE status in ('scheduled', 'running', 'awaiting_payment', 'second_chance');--> statement-breakpoint
CREATE INDEX `auctions_status_end_idx` ON `auctions` (`status`,`ends_at`);--> statement-breakpoint
CREATE INDEX `auctions_product_idx` ON `auctions` (`product_id`,`id`);--> statement-breakpoint
ALTER TABLE `bids` ADD `auction_id` integer;--> statement-breakpoint
ALTER TABLE `bids` ADD `proxy` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `bids_auction_idx` ON `bids` (`auction_id`,`id`);--> statement-breakpoint
CREATE INDEX `bids_user_idx` ON `bids` (`user_id`,`auction_id`);--> statement-breakpoint
CREATE TRIGGER `auctions_insert_live` AFTER INSERT ON `auctions` BEGIN INSERT INTO `live_events` (`topic`, `created_at`) VALUES ('auction:' || NEW.`product_id`, unixepoch()); END;
--> statement-breakpoint
CREATE TRIGGER `auctions_update_live` AFTER UPDATE ON `auctions` BEGIN INSERT INTO `live_events` (`topic`, `created_at`) VALUES ('auction:' || NEW.`product_id`, unixepoch()); END;
