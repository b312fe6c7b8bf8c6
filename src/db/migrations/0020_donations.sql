ALTER TABLE `games` ADD `prize_donated_at` integer;--> statement-breakpoint
ALTER TABLE `games` ADD `prize_handed_over_at` integer;--> statement-breakpoint
CREATE INDEX `games_prize_donated_idx` ON `games` (`settled_at`) WHERE prize_outcome = 'donated';--> statement-breakpoint
ALTER TABLE `orders` ADD `donation_to` text;--> statement-breakpoint
CREATE INDEX `orders_donation_idx` ON `orders` (`order_date`) WHERE donation_to IS NOT NULL;