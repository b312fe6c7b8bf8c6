CREATE TABLE `stock_levels` (
	`product_id` integer PRIMARY KEY NOT NULL,
	`stocked` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `stock_reservations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`product_id` integer NOT NULL,
	`quantity` integer NOT NULL,
	`reason` text NOT NULL,
	`owner` text NOT NULL,
	`order_id` integer,
	`state` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `stock_reservations_owner_idx` ON `stock_reservations` (`owner`,`state`);--> statement-breakpoint
CREATE INDEX `stock_reservations_order_idx` ON `stock_reservations` (`order_id`,`state`);--> statement-breakpoint
CREATE INDEX `stock_reservations_product_idx` ON `stock_reservations` (`product_id`,`state`);--> statement-breakpoint
CREATE TRIGGER `products_insert_stock_level` AFTER INSERT ON `products` BEGIN INSERT INTO `stock_levels` (`product_id`, `stocked`, `updated_at`) VALUES (NEW.`id`, NEW.`quantity`, NEW.`created_at`); END;
--> statement-breakpoint
INSERT INTO `stock_levels` (`product_id`, `stocked`, `updated_at`) SELECT `id`, `quantity`, `created_at` FROM `products`;
--> statement-breakpoint
INSERT INTO `stock_reservations` (`product_id`, `quantity`, `reason`, `owner`, `order_id`, `state`, `created_at`, `updated_at`)
SELECT i.`product_id`, i.`quantity`, CASE WHEN i.`purchase_type` = 'mystery_box' THEN 'box_draw' ELSE 'order_line' END, 'order:' || o.`id`, o.`id`,
  CASE WHEN o.`status` = 'pending' THEN 'held' ELSE 'sold' END, o.`order_date`, o.`updated_at`
FROM `order_items` i JOIN `orders` o ON o.`id` = i.`order_id`
WHERE i.`product_id` IS NOT NULL AND i.`purchase_type` IN ('buy_now', 'mystery_box')
  AND (o.`status` IN ('pending', 'processing', 'shipped', 'completed')
    OR (o.`status` = 'canceled' AND EXISTS (SELECT 1 FROM `payments` p WHERE p.`order_id` = o.`id` AND p.`kind` = 'order_charge' AND p.`status` = 'captured')));
--> statement-breakpoint
INSERT INTO `stock_reservations` (`product_id`, `quantity`, `reason`, `owner`, `order_id`, `state`, `created_at`, `updated_at`)
SELECT t.`product_id`, 1, 'team_place', 'team_member:' || m.`id`, m.`order_id`, CASE WHEN m.`status` = 'paid' THEN 'sold' ELSE 'held' END, m.`created_at`, m.`updated_at`
FROM `team_members` m JOIN `teams` t ON t.`id` = m.`team_id`
WHERE m.`status` IN ('holding', 'held')
  OR (m.`status` = 'paid' AND EXISTS (SELECT 1 FROM `orders` o WHERE o.`id` = m.`order_id` AND (o.`status` IN ('processing', 'shipped', 'completed')
    OR (o.`status` = 'canceled' AND EXISTS (SELECT 1 FROM `payments` p WHERE p.`order_id` = o.`id` AND p.`kind` = 'order_charge' AND p.`status` = 'captured')))));
--> statement-breakpoint
INSERT INTO `stock_reservations` (`product_id`, `quantity`, `reason`, `owner`, `order_id`, `state`, `created_at`, `updated_at`)
SELECT a.`product_id`, 1, 'auction', 'auction:' || a.`id`, a.`winner_order_id`, CASE WHEN a.`status` = 'ended' THEN 'sold' ELSE 'held' END, a.`created_at`, a.`updated_at`
FROM `auctions` a
WHERE a.`stock_reserved` = 1 AND (a.`status` IN ('scheduled', 'running', 'awaiting_payment', 'second_chance')
  OR (a.`status` = 'ended' AND EXISTS (SELECT 1 FROM `orders` o WHERE o.`id` = a.`winner_order_id` AND (o.`status` IN ('processing', 'shipped', 'completed')
    OR (o.`status` = 'canceled' AND EXISTS (SELECT 1 FROM `payments` p WHERE p.`order_id` = o.`id` AND p.`kind` = 'order_charge' AND p.`status` = 'captured'))))));
--> statement-breakpoint
INSERT INTO `stock_reservations` (`product_id`, `quantity`, `reason`, `owner`, `order_id`, `state`, `created_at`, `updated_at`)
SELECT g.`product_id`, 1, 'prize', 'game:' || g.`id`,
  (SELECT MAX(i.`order_id`) FROM `order_items` i WHERE i.`game_id` = g.`id`),
  CASE WHEN g.`prize_outcome` IN ('bought', 'donated') THEN 'sold' ELSE 'held' END, COALESCE(g.`start_time`, g.`created_at`), COALESCE(g.`start_time`, g.`created_at`)
FROM `games` g
WHERE g.`status` = 'active' OR (g.`status` = 'completed' AND g.`prize_outcome` IN ('unclaimed', 'cart', 'buying', 'bought', 'donated'));
--> statement-breakpoint
UPDATE `stock_levels` SET `stocked` = `stocked` + COALESCE((SELECT SUM(r.`quantity`) FROM `stock_reservations` r WHERE r.`product_id` = `stock_levels`.`product_id` AND r.`state` IN ('held', 'sold')), 0);
