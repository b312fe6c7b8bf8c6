ALTER TABLE `idempotency_keys` ADD `owner` text;--> statement-breakpoint
ALTER TABLE `idempotency_keys` ADD `guest` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `idempotency_keys` ADD `made_guest` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `idempotency_keys` ADD `order_id` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `idempotency_keys_guest_key_idx` ON `idempotency_keys` (`scope`,`key`) WHERE "idempotency_keys"."guest" = 1;