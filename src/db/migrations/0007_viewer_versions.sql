CREATE TABLE `viewer_versions` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`version` integer NOT NULL
);
--> statement-breakpoint
CREATE TRIGGER `cart_items_insert_viewer` AFTER INSERT ON `cart_items` BEGIN INSERT INTO `viewer_versions` (`user_id`, `version`) VALUES (NEW.`user_id`, 1) ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `cart_items_update_viewer` AFTER UPDATE ON `cart_items` BEGIN INSERT INTO `viewer_versions` (`user_id`, `version`) VALUES (NEW.`user_id`, 1) ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `cart_items_delete_viewer` AFTER DELETE ON `cart_items` BEGIN INSERT INTO `viewer_versions` (`user_id`, `version`) VALUES (OLD.`user_id`, 1) ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `notifications_insert_viewer` AFTER INSERT ON `notifications` BEGIN INSERT INTO `viewer_versions` (`user_id`, `version`) VALUES (NEW.`user_id`, 1) ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `notifications_update_viewer` AFTER UPDATE ON `notifications` BEGIN INSERT INTO `viewer_versions` (`user_id`, `version`) VALUES (NEW.`user_id`, 1) ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `notifications_delete_viewer` AFTER DELETE ON `notifications` BEGIN INSERT INTO `viewer_versions` (`user_id`, `version`) VALUES (OLD.`user_id`, 1) ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_profiles_insert_viewer` AFTER INSERT ON `user_profiles` BEGIN INSERT INTO `viewer_versions` (`user_id`, `version`) VALUES (NEW.`user_id`, 1) ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_profiles_update_viewer` AFTER UPDATE ON `user_profiles` BEGIN INSERT INTO `viewer_versions` (`user_id`, `version`) VALUES (NEW.`user_id`, 1) ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
--> statement-breakpoint
CREATE TRIGGER `user_profiles_delete_viewer` AFTER DELETE ON `user_profiles` BEGIN INSERT INTO `viewer_versions` (`user_id`, `version`) VALUES (OLD.`user_id`, 1) ON CONFLICT (`user_id`) DO UPDATE SET `version` = `version` + 1; END;
