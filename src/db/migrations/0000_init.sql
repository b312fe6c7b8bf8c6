CREATE TABLE `app_settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `bids` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`product_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `business_applications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`business_name` text NOT NULL,
	`contact_name` text NOT NULL,
	`email` text NOT NULL,
	`phone` text NOT NULL,
	`address` text NOT NULL,
	`city` text DEFAULT 'Laguna Beach' NOT NULL,
	`zip_code` text NOT NULL,
	`business_type` text NOT NULL,
	`description` text NOT NULL,
	`website` text,
	`instagram_handle` text,
	`terms_agreed` integer NOT NULL,
	`user_id` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `cart_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`product_id` integer NOT NULL,
	`quantity` integer DEFAULT 1 NOT NULL,
	`price_cents` integer NOT NULL,
	`type` text DEFAULT 'regular' NOT NULL,
	`game_id` integer,
	`added_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `cart_items_user_idx` ON `cart_items` (`user_id`);--> statement-breakpoint
CREATE TABLE `coach_signups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `coach_signups_email_unique` ON `coach_signups` (`email`);--> statement-breakpoint
CREATE TABLE `games` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`product_id` integer NOT NULL,
	`status` text DEFAULT 'waiting' NOT NULL,
	`required_participants` integer NOT NULL,
	`start_time` integer,
	`end_time` integer,
	`winner_play_id` integer,
	`prize_outcome` text,
	`created_at` integer NOT NULL,
	`settled_at` integer,
	`canceled_at` integer,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `games_product_status_idx` ON `games` (`product_id`,`status`);--> statement-breakpoint
CREATE INDEX `games_status_idx` ON `games` (`status`);--> statement-breakpoint
CREATE TABLE `influencer_metrics` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`influencer_id` integer NOT NULL,
	`platform` text NOT NULL,
	`minute_at` integer NOT NULL,
	`followers` integer NOT NULL,
	`engagement` real NOT NULL,
	`growth` real NOT NULL,
	`posts` integer NOT NULL,
	`points` real NOT NULL,
	`source` text NOT NULL,
	`taken_at` integer NOT NULL,
	FOREIGN KEY (`influencer_id`) REFERENCES `influencers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `influencer_metrics_unique` ON `influencer_metrics` (`influencer_id`,`platform`,`minute_at`);--> statement-breakpoint
CREATE TABLE `influencers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`handle` text NOT NULL,
	`avatar` text DEFAULT '' NOT NULL,
	`platforms` text NOT NULL,
	`engagement_rate` real DEFAULT 2 NOT NULL,
	`category` text DEFAULT '' NOT NULL,
	`score` real DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `influencers_handle_unique` ON `influencers` (`handle`);--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`type` text NOT NULL,
	`title` text NOT NULL,
	`message` text NOT NULL,
	`action_url` text,
	`action_text` text,
	`product_id` integer,
	`game_id` integer,
	`read` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `notifications_user_idx` ON `notifications` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `order_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_id` integer NOT NULL,
	`product_id` integer,
	`quantity` integer NOT NULL,
	`price_cents` integer NOT NULL,
	`purchase_type` text DEFAULT 'buy_now' NOT NULL,
	`product_label` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `orders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`order_date` integer NOT NULL,
	`total_cents` integer NOT NULL,
	`subtotal_cents` integer NOT NULL,
	`tax_cents` integer NOT NULL,
	`shipping_cents` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`customer_name` text,
	`customer_email` text,
	`customer_phone` text,
	`shipping_address` text,
	`shipping_city` text,
	`shipping_state` text,
	`shipping_zip_code` text,
	`shipping_country` text,
	`payment_method` text NOT NULL,
	`shipping_method` text NOT NULL,
	`payment_id` text,
	`notes` text,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `orders_user_idx` ON `orders` (`user_id`,`order_date`);--> statement-breakpoint
CREATE TABLE `payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`amount_cents` integer NOT NULL,
	`order_id` integer,
	`play_id` integer,
	`gateway` text NOT NULL,
	`gateway_payment_id` text,
	`idempotency_key` text NOT NULL,
	`error_code` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`play_id`) REFERENCES `plays`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payments_idempotency_key_unique` ON `payments` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `payments_play_idx` ON `payments` (`play_id`);--> statement-breakpoint
CREATE INDEX `payments_order_idx` ON `payments` (`order_id`);--> statement-breakpoint
CREATE TABLE `plays` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`product_id` integer NOT NULL,
	`game_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`influencer_ids` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`score` real,
	`entered_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`product_id`) REFERENCES `products`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `plays_game_user_unique` ON `plays` (`game_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `plays_user_idx` ON `plays` (`user_id`);--> statement-breakpoint
CREATE TABLE `products` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`product_type` text DEFAULT 'sunglasses' NOT NULL,
	`brand` text NOT NULL,
	`model` text NOT NULL,
	`size` text DEFAULT '' NOT NULL,
	`quantity` integer DEFAULT 0 NOT NULL,
	`price_cents` integer NOT NULL,
	`image_url` text DEFAULT '' NOT NULL,
	`description` text,
	`buy_now_enabled` integer DEFAULT true NOT NULL,
	`bid_enabled` integer DEFAULT false NOT NULL,
	`play_enabled` integer DEFAULT false NOT NULL,
	`half_price_enabled` integer DEFAULT false NOT NULL,
	`mystery_box_enabled` integer DEFAULT false NOT NULL,
	`buy_one_play_free_enabled` integer DEFAULT false NOT NULL,
	`donate_enabled` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `products_type_idx` ON `products` (`product_type`,`id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`pin_verified_at` integer,
	`pin_failures` integer DEFAULT 0 NOT NULL,
	`pin_locked_until` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `user_profiles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`name` text,
	`email` text,
	`phone` text,
	`address` text,
	`payment_method` text,
	`gateway_customer_id` text,
	`gateway_card_id` text,
	`email_notifications` integer DEFAULT true NOT NULL,
	`sms_notifications` integer DEFAULT false NOT NULL,
	`newsletter_subscription` integer DEFAULT false NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_profiles_user_id_unique` ON `user_profiles` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`password_hash` text NOT NULL,
	`email` text,
	`full_name` text,
	`phone_number` text,
	`address` text,
	`city` text,
	`state` text,
	`zip_code` text,
	`country` text,
	`profile_image` text,
	`is_admin` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (lower("username"));