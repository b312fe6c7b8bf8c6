CREATE TABLE `change_counters` (
	`name` text PRIMARY KEY NOT NULL,
	`value` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `job_leases` (
	`name` text PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`expires_at` integer NOT NULL,
	`renewed_at` integer NOT NULL,
	`ticked_at` integer
);
--> statement-breakpoint
CREATE TABLE `rate_limit_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`bucket` text NOT NULL,
	`key` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `rate_limit_events_key_idx` ON `rate_limit_events` (`bucket`,`key`,`at`);--> statement-breakpoint
CREATE INDEX `rate_limit_events_at_idx` ON `rate_limit_events` (`at`);--> statement-breakpoint
INSERT INTO `change_counters` (`name`, `value`) VALUES ('storefront', 0);--> statement-breakpoint
CREATE TRIGGER `products_insert_changes_storefront` AFTER INSERT ON `products` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;--> statement-breakpoint
CREATE TRIGGER `products_update_changes_storefront` AFTER UPDATE ON `products` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;--> statement-breakpoint
CREATE TRIGGER `products_delete_changes_storefront` AFTER DELETE ON `products` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;--> statement-breakpoint
CREATE TRIGGER `games_insert_changes_storefront` AFTER INSERT ON `games` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;--> statement-breakpoint
CREATE TRIGGER `games_update_changes_storefront` AFTER UPDATE ON `games` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;--> statement-breakpoint
CREATE TRIGGER `games_delete_changes_storefront` AFTER DELETE ON `games` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;--> statement-breakpoint
CREATE TRIGGER `plays_insert_changes_storefront` AFTER INSERT ON `plays` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;--> statement-breakpoint
CREATE TRIGGER `plays_update_changes_storefront` AFTER UPDATE ON `plays` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;--> statement-breakpoint
CREATE TRIGGER `plays_delete_changes_storefront` AFTER DELETE ON `plays` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;--> statement-breakpoint
CREATE TRIGGER `influencers_insert_changes_storefront` AFTER INSERT ON `influencers` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;--> statement-breakpoint
CREATE TRIGGER `influencers_update_changes_storefront` AFTER UPDATE ON `influencers` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;--> statement-breakpoint
CREATE TRIGGER `influencers_delete_changes_storefront` AFTER DELETE ON `influencers` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;
