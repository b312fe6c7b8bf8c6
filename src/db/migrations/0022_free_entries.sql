CREATE TABLE `free_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`product_id` integer,
	`order_id` integer NOT NULL,
	`order_item_id` integer NOT NULL,
	`unit` integer NOT NULL,
	`status` text DEFAULT 'available' NOT NULL,
	`granted_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`play_id` integer,
	`used_at` integer,
	`withdrawn_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`order_item_id`) REFERENCES `order_items`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`play_id`) REFERENCES `plays`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `free_entries_line_unit_unique` ON `free_entries` (`order_item_id`,`unit`);--> statement-breakpoint
CREATE INDEX `free_entries_user_idx` ON `free_entries` (`user_id`,`status`,`expires_at`);--> statement-breakpoint
CREATE INDEX `free_entries_order_idx` ON `free_entries` (`order_id`);--> statement-breakpoint
CREATE INDEX `free_entries_play_idx` ON `free_entries` (`play_id`);