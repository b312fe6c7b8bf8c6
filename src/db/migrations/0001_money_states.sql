CREATE TABLE `idempotency_keys` (
	`user_id` integer NOT NULL,
	`scope` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`response_status` integer,
	`response_body` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `scope`, `key`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created_idx` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`order_id` integer,
	`play_id` integer,
	`gateway` text NOT NULL,
	`gateway_payment_id` text,
	`idempotency_key` text NOT NULL,
	`error_code` text,
	`error_detail` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`reviewed_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`play_id`) REFERENCES `plays`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `__new_payments`("id", "user_id", "kind", "status", "amount_cents", "order_id", "play_id", "gateway", "gateway_payment_id", "idempotency_key", "error_code", "created_at", "updated_at") SELECT "id", "user_id", "kind", CASE WHEN "status" = 'pending' THEN (CASE "kind" WHEN 'order_charge' THEN 'charging' WHEN 'play_authorization' THEN 'authorizing' ELSE 'refunding' END) ELSE "status" END, "amount_cents", "order_id", "play_id", "gateway", "gateway_payment_id", "idempotency_key", "error_code", "created_at", "updated_at" FROM `payments`;--> statement-breakpoint
DROP TABLE `payments`;--> statement-breakpoint
ALTER TABLE `__new_payments` RENAME TO `payments`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `payments_idempotency_key_unique` ON `payments` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `payments_play_idx` ON `payments` (`play_id`);--> statement-breakpoint
CREATE INDEX `payments_order_idx` ON `payments` (`order_id`);--> statement-breakpoint
CREATE INDEX `payments_status_idx` ON `payments` (`status`);--> statement-breakpoint
ALTER TABLE `notifications` ADD `event_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_event_unique` ON `notifications` (`user_id`,`event_key`);--> statement-breakpoint
ALTER TABLE `order_items` ADD `cart_item_id` integer;--> statement-breakpoint
ALTER TABLE `order_items` ADD `game_id` integer;--> statement-breakpoint
ALTER TABLE `orders` ADD `checkout_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `orders_checkout_in_flight` ON `orders` (`checkout_key`) WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX `orders_status_idx` ON `orders` (`status`);