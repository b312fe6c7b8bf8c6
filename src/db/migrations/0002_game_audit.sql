CREATE TABLE `game_records` (
	`game_id` integer PRIMARY KEY NOT NULL,
	`product_id` integer NOT NULL,
	`record` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `player_settings` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`consented_at` integer,
	`daily_entry_limit` integer,
	`excluded_until` integer,
	`exclusion_period` text,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
DROP INDEX `games_status_idx`;--> statement-breakpoint
ALTER TABLE `games` ADD `cancel_reason` text;--> statement-breakpoint
ALTER TABLE `games` ADD `metrics_source` text DEFAULT 'simulated' NOT NULL;--> statement-breakpoint
ALTER TABLE `games` ADD `seed` text;--> statement-breakpoint
ALTER TABLE `games` ADD `seed_hash` text;--> statement-breakpoint
ALTER TABLE `games` ADD `calibration` text;--> statement-breakpoint
CREATE INDEX `games_settled_idx` ON `games` (`settled_at`);--> statement-breakpoint
CREATE INDEX `games_status_idx` ON `games` (`status`,`end_time`);--> statement-breakpoint
DROP INDEX `payments_status_idx`;--> statement-breakpoint
CREATE INDEX `payments_status_idx` ON `payments` (`status`,`next_attempt_at`);--> statement-breakpoint
DROP INDEX `plays_user_idx`;--> statement-breakpoint
CREATE INDEX `plays_game_status_idx` ON `plays` (`game_id`,`status`);--> statement-breakpoint
CREATE INDEX `plays_status_created_idx` ON `plays` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `plays_user_idx` ON `plays` (`user_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `influencers` ADD `retired_at` integer;--> statement-breakpoint
CREATE INDEX `influencer_metrics_minute_idx` ON `influencer_metrics` (`minute_at`);