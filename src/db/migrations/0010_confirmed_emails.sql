-- users.email now means the confirmed account address (reset and unlock links go there). What the
-- column held was confirmed only when an e-mail change link set it; every other address was taken
-- on the owner's word, so it is cleared here (the profile keeps it as the contact address) and
-- its owner confirms it through a link.
UPDATE `users` SET `email` = NULL
WHERE `email` IS NOT NULL
  AND NOT EXISTS (
    SELECT 1 FROM `account_tokens` AS `t`
    WHERE `t`.`user_id` = `users`.`id` AND `t`.`purpose` = 'email_change' AND `t`.`used_at` IS NOT NULL
      AND lower(`t`.`email`) = lower(`users`.`email`)
  );--> statement-breakpoint
-- Two accounts that both confirmed one address: the older account keeps it.
UPDATE `users` SET `email` = NULL
WHERE `email` IS NOT NULL
  AND `id` > (SELECT min(`o`.`id`) FROM `users` AS `o` WHERE lower(`o`.`email`) = lower(`users`.`email`));--> statement-breakpoint
CREATE UNIQUE INDEX `users_confirmed_email_unique` ON `users` (lower("email")) WHERE "users"."email" is not null;
