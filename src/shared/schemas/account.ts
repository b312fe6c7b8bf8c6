import * as z from 'zod/mini';
import { passwordRule } from './auth.ts';

/* Account recovery and settings: shared by the API, the server-rendered forms and their tests. */

export const passwordResetRequestSchema = z.object({
  email: z.optional(z.string().check(z.trim(), z.maxLength(254, 'That e-mail is too long'))),
  username: z.optional(z.string().check(z.trim(), z.maxLength(254, 'That username is too long'))),
});

const token = z
  .string({ error: 'This reset link is invalid or has expired. Please ask for a new one.' })
  .check(
    z.minLength(1, 'This reset link is invalid or has expired. Please ask for a new one.'),
    z.maxLength(200, 'This reset link is invalid or has expired. Please ask for a new one.'),
  );

export const passwordResetConfirmSchema = z.object({ token, password: passwordRule });

/** POST /api/user/email/confirm: the token of the link sent to the address; an account's first address also needs its password. */
export const emailConfirmSchema = z.object({
  token,
  password: z.optional(z.string().check(z.maxLength(128, 'Your password is not right.'))),
});

/** The /auth/reset form, which also asks to confirm the new password. */
export const passwordResetFormSchema = z
  .extend(passwordResetConfirmSchema, {
    confirmPassword: z.string({ error: 'Please confirm your password' }).check(z.minLength(1, 'Please confirm your password')),
  })
  .check(z.refine((form) => form.password === form.confirmPassword, { message: 'Passwords do not match', path: ['confirmPassword'] }));

export const passwordChangeSchema = z.object({
  currentPassword: z
    .string({ error: 'Enter your current password' })
    .check(z.minLength(1, 'Enter your current password'), z.maxLength(128, 'Enter your current password')),
  newPassword: passwordRule,
});

export const accountDeleteSchema = z.object({
  password: z
    .string({ error: 'Enter your password to delete your account' })
    .check(z.minLength(1, 'Enter your password to delete your account'), z.maxLength(128, 'Enter your password to delete your account')),
});

export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;
