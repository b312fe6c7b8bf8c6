ALTER TABLE `products` ADD `name` text;--> statement-breakpoint
ALTER TABLE `products` ADD `archived_at` integer;