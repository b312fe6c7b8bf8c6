import { z } from 'zod';

/*
 * Sign-in rules of spec section 5, shared by the API, the server-rendered /auth forms and the
 * AuthForm island. Keep this file free of server imports: the browser bundles it.
 */

const username = z
  .string({ error: 'Username is required' })
  .trim()
  .min(1, 'Username is required')
  .max(32, 'Username must be at most 32 characters');

const password = z
  .string({ error: 'Password must be at least 6 characters' })
  .min(6, 'Password must be at least 6 characters')
  .max(128, 'Password must be at most 128 characters');

export const loginSchema = z.object({ username, password });

/** What POST /api/register receives: only username and password are sent. */
export const registerSchema = z.object({
  username: username.regex(
    /^[A-Za-z0-9._-]+$/,
    'Username can only use letters, numbers, dots, dashes and underscores',
  ),
  password,
});

/** The Register tab's form, which also asks to confirm the password. */
export const registerFormSchema = registerSchema
  .extend({
    confirmPassword: z.string({ error: 'Please confirm your password' }).min(1, 'Please confirm your password'),
  })
  .refine((form) => form.password === form.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });

export type LoginInput = z.infer<typeof loginSchema>;
export type RegisterInput = z.infer<typeof registerSchema>;
