-- What the cached pages show besides products, games, plays, influencers and teams (0004, 0019) moves the
-- storefront version when written, by any process: a cache hit then needs no query to know it is current (issue 35).
CREATE TRIGGER `auctions_insert_changes_storefront` AFTER INSERT ON `auctions` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;
--> statement-breakpoint
CREATE TRIGGER `auctions_update_changes_storefront` AFTER UPDATE ON `auctions` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;
--> statement-breakpoint
CREATE TRIGGER `auctions_delete_changes_storefront` AFTER DELETE ON `auctions` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;
--> statement-breakpoint
CREATE TRIGGER `bids_insert_changes_storefront` AFTER INSERT ON `bids` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;
--> statement-breakpoint
CREATE TRIGGER `bids_update_changes_storefront` AFTER UPDATE ON `bids` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;
--> statement-breakpoint
CREATE TRIGGER `bids_delete_changes_storefront` AFTER DELETE ON `bids` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;
--> statement-breakpoint
CREATE TRIGGER `team_members_insert_changes_storefront` AFTER INSERT ON `team_members` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;
--> statement-breakpoint
CREATE TRIGGER `team_members_update_changes_storefront` AFTER UPDATE ON `team_members` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;
--> statement-breakpoint
CREATE TRIGGER `team_members_delete_changes_storefront` AFTER DELETE ON `team_members` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;
--> statement-breakpoint
CREATE TRIGGER `stock_levels_insert_changes_storefront` AFTER INSERT ON `stock_levels` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;
--> statement-breakpoint
CREATE TRIGGER `stock_levels_update_changes_storefront` AFTER UPDATE ON `stock_levels` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;
--> statement-breakpoint
CREATE TRIGGER `stock_levels_delete_changes_storefront` AFTER DELETE ON `stock_levels` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;
--> statement-breakpoint
CREATE TRIGGER `stock_reservations_insert_changes_storefront` AFTER INSERT ON `stock_reservations` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;
--> statement-breakpoint
CREATE TRIGGER `stock_reservations_update_changes_storefront` AFTER UPDATE ON `stock_reservations` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;
--> statement-breakpoint
CREATE TRIGGER `stock_reservations_delete_changes_storefront` AFTER DELETE ON `stock_reservations` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;
--> statement-breakpoint
CREATE TRIGGER `teams_delete_changes_storefront` AFTER DELETE ON `teams` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;
--> statement-breakpoint
CREATE TRIGGER `users_username_changes_storefront` AFTER UPDATE OF `username` ON `users` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;
