-- Issue 38: stock belongs to a variant (a size). Every product becomes a product with one variant,
-- given the product's own id so every order line, hold, game, auction and team points at it.
CREATE TABLE `product_variants` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`product_id` integer NOT NULL,
	`sku` text NOT NULL,
	`size` text DEFAULT '' NOT NULL,
	`colour` text,
	`price_cents` integer,
	`quantity` integer DEFAULT 0 NOT NULL,
	`stocked` integer DEFAULT 0 NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `product_variants_product_idx` ON `product_variants` (`product_id`,`position`,`id`);--> statement-breakpoint
ALTER TABLE `auctions` ADD `variant_id` integer REFERENCES product_variants(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `games` ADD `variant_id` integer REFERENCES product_variants(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `stock_reservations` ADD `variant_id` integer REFERENCES product_variants(id) ON DELETE set null;--> statement-breakpoint
CREATE INDEX `stock_reservations_variant_idx` ON `stock_reservations` (`variant_id`,`state`);--> statement-breakpoint
ALTER TABLE `mystery_draws` ADD `variant_id` integer REFERENCES product_variants(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `cart_items` ADD `variant_id` integer REFERENCES product_variants(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `order_items` ADD `variant_id` integer REFERENCES product_variants(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `order_items` ADD `size_label` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `teams` ADD `variant_id` integer REFERENCES product_variants(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `mystery_draws` ADD `size` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `games_variant_status_idx` ON `games` (`variant_id`,`status`);--> statement-breakpoint
INSERT INTO `product_variants` (`id`, `product_id`, `sku`, `size`, `quantity`, `stocked`, `position`, `created_at`)
SELECT p.`id`, p.`id`, p.`model`, p.`size`, p.`quantity`, COALESCE(l.`stocked`, p.`quantity`), 0, p.`created_at`
FROM `products` p LEFT JOIN `stock_levels` l ON l.`product_id` = p.`id`;
--> statement-breakpoint
UPDATE `stock_reservations` SET `variant_id` = `product_id`;--> statement-breakpoint
UPDATE `order_items` SET `variant_id` = `product_id` WHERE `product_id` IS NOT NULL;--> statement-breakpoint
UPDATE `cart_items` SET `variant_id` = `product_id`;--> statement-breakpoint
UPDATE `games` SET `variant_id` = `product_id`;--> statement-breakpoint
UPDATE `auctions` SET `variant_id` = `product_id`;--> statement-breakpoint
UPDATE `teams` SET `variant_id` = `product_id`;--> statement-breakpoint
UPDATE `mystery_draws` SET `variant_id` = `product_id` WHERE `product_id` IS NOT NULL;--> statement-breakpoint
DROP TRIGGER IF EXISTS `products_insert_stock_level`;--> statement-breakpoint
DROP TABLE `stock_levels`;--> statement-breakpoint
-- A product is never without a variant: one is made with it (the admin's form then renames or adds).
CREATE TRIGGER `products_insert_first_variant` AFTER INSERT ON `products` BEGIN INSERT INTO `product_variants` (`product_id`, `sku`, `size`, `quantity`, `stocked`, `position`, `created_at`) VALUES (NEW.`id`, NEW.`model`, NEW.`size`, NEW.`quantity`, NEW.`quantity`, 0, NEW.`created_at`); END;
--> statement-breakpoint
CREATE TRIGGER `product_variants_insert_changes_storefront` AFTER INSERT ON `product_variants` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;
--> statement-breakpoint
CREATE TRIGGER `product_variants_update_changes_storefront` AFTER UPDATE ON `product_variants` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;
--> statement-breakpoint
CREATE TRIGGER `product_variants_delete_changes_storefront` AFTER DELETE ON `product_variants` BEGIN UPDATE `change_counters` SET `value` = `value` + 1 WHERE `name` = 'storefront'; END;
--> statement-breakpoint
-- A row that names a product with one variant and no variant names that one: older tools and
-- scripts that write a product id alone stay right. A product with several sizes needs the size named.
CREATE TRIGGER `games_insert_sole_variant` AFTER INSERT ON `games` WHEN NEW.`variant_id` IS NULL AND NEW.`product_id` IS NOT NULL AND (SELECT count(*) FROM `product_variants` v WHERE v.`product_id` = NEW.`product_id`) = 1 BEGIN UPDATE `games` SET `variant_id` = (SELECT v.`id` FROM `product_variants` v WHERE v.`product_id` = NEW.`product_id`) WHERE `rowid` = NEW.`rowid`; END;
--> statement-breakpoint
CREATE TRIGGER `auctions_insert_sole_variant` AFTER INSERT ON `auctions` WHEN NEW.`variant_id` IS NULL AND NEW.`product_id` IS NOT NULL AND (SELECT count(*) FROM `product_variants` v WHERE v.`product_id` = NEW.`product_id`) = 1 BEGIN UPDATE `auctions` SET `variant_id` = (SELECT v.`id` FROM `product_variants` v WHERE v.`product_id` = NEW.`product_id`) WHERE `rowid` = NEW.`rowid`; END;
--> statement-breakpoint
CREATE TRIGGER `teams_insert_sole_variant` AFTER INSERT ON `teams` WHEN NEW.`variant_id` IS NULL AND NEW.`product_id` IS NOT NULL AND (SELECT count(*) FROM `product_variants` v WHERE v.`product_id` = NEW.`product_id`) = 1 BEGIN UPDATE `teams` SET `variant_id` = (SELECT v.`id` FROM `product_variants` v WHERE v.`product_id` = NEW.`product_id`) WHERE `rowid` = NEW.`rowid`; END;
--> statement-breakpoint
CREATE TRIGGER `cart_items_insert_sole_variant` AFTER INSERT ON `cart_items` WHEN NEW.`variant_id` IS NULL AND NEW.`product_id` IS NOT NULL AND (SELECT count(*) FROM `product_variants` v WHERE v.`product_id` = NEW.`product_id`) = 1 BEGIN UPDATE `cart_items` SET `variant_id` = (SELECT v.`id` FROM `product_variants` v WHERE v.`product_id` = NEW.`product_id`) WHERE `rowid` = NEW.`rowid`; END;
--> statement-breakpoint
CREATE TRIGGER `order_items_insert_sole_variant` AFTER INSERT ON `order_items` WHEN NEW.`variant_id` IS NULL AND NEW.`product_id` IS NOT NULL AND (SELECT count(*) FROM `product_variants` v WHERE v.`product_id` = NEW.`product_id`) = 1 BEGIN UPDATE `order_items` SET `variant_id` = (SELECT v.`id` FROM `product_variants` v WHERE v.`product_id` = NEW.`product_id`) WHERE `rowid` = NEW.`rowid`; END;
--> statement-breakpoint
CREATE TRIGGER `stock_reservations_insert_sole_variant` AFTER INSERT ON `stock_reservations` WHEN NEW.`variant_id` IS NULL AND NEW.`product_id` IS NOT NULL AND (SELECT count(*) FROM `product_variants` v WHERE v.`product_id` = NEW.`product_id`) = 1 BEGIN UPDATE `stock_reservations` SET `variant_id` = (SELECT v.`id` FROM `product_variants` v WHERE v.`product_id` = NEW.`product_id`) WHERE `rowid` = NEW.`rowid`; END;
--> statement-breakpoint
CREATE TRIGGER `mystery_draws_insert_sole_variant` AFTER INSERT ON `mystery_draws` WHEN NEW.`variant_id` IS NULL AND NEW.`product_id` IS NOT NULL AND (SELECT count(*) FROM `product_variants` v WHERE v.`product_id` = NEW.`product_id`) = 1 BEGIN UPDATE `mystery_draws` SET `variant_id` = (SELECT v.`id` FROM `product_variants` v WHERE v.`product_id` = NEW.`product_id`) WHERE `rowid` = NEW.`rowid`; END;
