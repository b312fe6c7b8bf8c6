CREATE TABLE `live_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`topic` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `live_events_created_idx` ON `live_events` (`created_at`);--> statement-breakpoint
CREATE TRIGGER `games_insert_live` AFTER INSERT ON `games` BEGIN INSERT INTO `live_events` (`topic`, `created_at`) VALUES ('product:' || NEW.`product_id`, unixepoch()), ('scoreboard', unixepoch()); END;
--> statement-breakpoint
CREATE TRIGGER `plays_insert_live` AFTER INSERT ON `plays` BEGIN INSERT INTO `live_events` (`topic`, `created_at`) VALUES ('product:' || NEW.`product_id`, unixepoch()), ('scoreboard', unixepoch()); END;
--> statement-breakpoint
CREATE TRIGGER `notifications_insert_live` AFTER INSERT ON `notifications` BEGIN INSERT INTO `live_events` (`topic`, `created_at`) VALUES ('user:' || NEW.`user_id`, unixepoch()); END;
--> statement-breakpoint
CREATE TRIGGER `cart_items_insert_live` AFTER INSERT ON `cart_items` BEGIN INSERT INTO `live_events` (`topic`, `created_at`) VALUES ('user:' || NEW.`user_id`, unixepoch()); END;
--> statement-breakpoint
CREATE TRIGGER `games_update_live` AFTER UPDATE ON `games` BEGIN INSERT INTO `live_events` (`topic`, `created_at`) VALUES ('product:' || NEW.`product_id`, unixepoch()), ('scoreboard', unixepoch()); END;
--> statement-breakpoint
CREATE TRIGGER `plays_update_live` AFTER UPDATE ON `plays` BEGIN INSERT INTO `live_events` (`topic`, `created_at`) VALUES ('product:' || NEW.`product_id`, unixepoch()), ('scoreboard', unixepoch()); END;
--> statement-breakpoint
CREATE TRIGGER `notifications_update_live` AFTER UPDATE ON `notifications` BEGIN INSERT INTO `live_events` (`topic`, `created_at`) VALUES ('user:' || NEW.`user_id`, unixepoch()); END;
--> statement-breakpoint
CREATE TRIGGER `cart_items_update_live` AFTER UPDATE ON `cart_items` BEGIN INSERT INTO `live_events` (`topic`, `created_at`) VALUES ('user:' || NEW.`user_id`, unixepoch()); END;
--> statement-breakpoint
CREATE TRIGGER `games_delete_live` AFTER DELETE ON `games` BEGIN INSERT INTO `live_events` (`topic`, `created_at`) VALUES ('product:' || OLD.`product_id`, unixepoch()), ('scoreboard', unixepoch()); END;
--> statement-breakpoint
CREATE TRIGGER `plays_delete_live` AFTER DELETE ON `plays` BEGIN INSERT INTO `live_events` (`topic`, `created_at`) VALUES ('product:' || OLD.`product_id`, unixepoch()), ('scoreboard', unixepoch()); END;
--> statement-breakpoint
CREATE TRIGGER `notifications_delete_live` AFTER DELETE ON `notifications` BEGIN INSERT INTO `live_events` (`topic`, `created_at`) VALUES ('user:' || OLD.`user_id`, unixepoch()); END;
--> statement-breakpoint
CREATE TRIGGER `cart_items_delete_live` AFTER DELETE ON `cart_items` BEGIN INSERT INTO `live_events` (`topic`, `created_at`) VALUES ('user:' || OLD.`user_id`, unixepoch()); END;
