ALTER TABLE `payments` ADD `review_note` text;--> statement-breakpoint
-- One gateway payment pays one row. A store that already let one payment pay two orders (issue 25)
-- keeps it on the first row; the later rows lose the link, keep it in their note and show under
-- "Needs attention" (unreviewed) for an admin to check, instead of failing this migration.
UPDATE `payments`
SET `review_note` = 'Gateway payment ' || `gateway_payment_id` || ' also paid payment #' || (
    SELECT min(`first`.`id`) FROM `payments` AS `first` WHERE `first`.`gateway_payment_id` = `payments`.`gateway_payment_id`
  ) || '; unlinked here when gateway payments became unique. Check at the card processor whether this one was paid.',
  `gateway_payment_id` = NULL,
  `reviewed_at` = NULL
WHERE `gateway_payment_id` IS NOT NULL
  AND `id` > (SELECT min(`first`.`id`) FROM `payments` AS `first` WHERE `first`.`gateway_payment_id` = `payments`.`gateway_payment_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `payments_gateway_payment_unique` ON `payments` (`gateway_payment_id`);
