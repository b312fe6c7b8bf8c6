ALTER TABLE `email_outbox` ADD `link_expires_at` integer;--> statement-breakpoint
CREATE INDEX `email_outbox_created_idx` ON `email_outbox` (`created_at`);--> statement-breakpoint
CREATE INDEX `email_outbox_link_idx` ON `email_outbox` (`link_expires_at`) WHERE link_expires_at is not null;--> statement-breakpoint
-- Messages with a single-use link queued before this version get the expiry of their kind (30
-- minutes, an hour, a day), so the retention job blanks any body that still holds one.
UPDATE `email_outbox` SET `link_expires_at` = `created_at` + (CASE `kind`
    WHEN 'password_reset' THEN 30 * 60 * 1000
    WHEN 'account_unlock' THEN 60 * 60 * 1000
    ELSE 24 * 60 * 60 * 1000 END)
WHERE `kind` IN ('password_reset', 'account_unlock', 'email_change')
  AND `text_body` <> '[removed after sending: it held a single-use link]';
