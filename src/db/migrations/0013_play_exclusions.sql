CREATE TABLE `play_exclusions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`identifier_hash` text NOT NULL,
	`excluded_until` integer NOT NULL,
	`exclusion_period` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `play_exclusions_identifier_idx` ON `play_exclusions` (`kind`,`identifier_hash`);--> statement-breakpoint
CREATE INDEX `play_exclusions_until_idx` ON `play_exclusions` (`excluded_until`);--> statement-breakpoint
ALTER TABLE `player_settings` ADD `pending_daily_entry_limit` integer;--> statement-breakpoint
ALTER TABLE `player_settings` ADD `pending_limit_from` integer;--> statement-breakpoint
ALTER TABLE `player_settings` ADD `card_fingerprint_hash` text;