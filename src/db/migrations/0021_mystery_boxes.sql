CREATE TABLE `mystery_boxes` (
	`product_type` text PRIMARY KEY NOT NULL,
	`price_cents` integer NOT NULL,
	`updated_by` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`updated_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `mystery_draws` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_id` integer NOT NULL,
	`product_type` text NOT NULL,
	`seed_id` integer NOT NULL,
	`product_id` integer,
	`product_label` text NOT NULL,
	`price_cents` integer NOT NULL,
	`stock` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`seed_id`) REFERENCES `mystery_seeds`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `mystery_draws_order_idx` ON `mystery_draws` (`order_id`);--> statement-breakpoint
CREATE INDEX `mystery_draws_type_idx` ON `mystery_draws` (`product_type`,`id`);--> statement-breakpoint
CREATE TABLE `mystery_seeds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`product_type` text NOT NULL,
	`seed` text NOT NULL,
	`seed_hash` text NOT NULL,
	`committed_at` integer NOT NULL,
	`used_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mystery_seeds_current` ON `mystery_seeds` (`product_type`) WHERE used_at is null;--> statement-breakpoint
CREATE INDEX `products_mystery_idx` ON `products` (`product_type`,`id`) WHERE mystery_box_enabled = 1 and archived_at is null;