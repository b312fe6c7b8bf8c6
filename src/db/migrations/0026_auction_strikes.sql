CREATE TABLE `auction_strikes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`auction_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`lifted_at` integer,
	`lifted_by` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`auction_id`) REFERENCES `auctions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`lifted_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `auction_strikes_auction_user_idx` ON `auction_strikes` (`auction_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `auction_strikes_user_idx` ON `auction_strikes` (`user_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `auctions` ADD `offer_cents` integer;--> statement-breakpoint
CREATE INDEX `auctions_status_due_idx` ON `auctions` (`status`,`payment_due_at`,`id`);--> statement-breakpoint
-- Added by hand: an offer made before this migration kept the runner-up's maximum as the price; it moves to offer_cents and the price goes back to the last public bid.
UPDATE `auctions` SET `offer_cents` = `current_price_cents`, `current_price_cents` = coalesce((SELECT `amount_cents` FROM `bids` WHERE `bids`.`auction_id` = `auctions`.`id` ORDER BY `bids`.`id` DESC LIMIT 1), `current_price_cents`) WHERE `status` = 'second_chance';
