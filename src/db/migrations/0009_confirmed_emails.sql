-- users.email now means the confirmed address (reset and unlock links go there). Nothing ever confirmed
-- what the column held before, so it starts empty: each account confirms its address through a link.
UPDATE `users` SET `email` = NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `users_confirmed_email_unique` ON `users` (lower("email")) WHERE "users"."email" is not null;