import * as z from 'zod/mini';

/*
 * Sign-in rules of spec section 5, shared by the API, the server-rendered /auth forms and the
 * AuthForm island. Written with zod/mini, which the browser bundle can tree-shake; keep this
 * file free of server imports.
 */

const username = z
  .string({ error: 'Username is required' })
  .check(z.trim(), z.minLength(1, 'Username is required'), z.maxLength(32, 'Username must be at most 32 characters'));

const password = z
  .string({ error: 'Password must be at least 6 characters' })
  .check(z.minLength(6, 'Password must be at least 6 characters'), z.maxLength(128, 'Password must be at most 128 characters'));

/** The password rule of spec section 5, for every form that sets one. */
export const passwordRule = password;

export const loginSchema = z.object({ username, password });

/** What POST /api/register receives: only username and password are sent. */
export const registerSchema = z.object({
  username: username.check(z.regex(/^[A-Za-z0-9._-]*$/, 'Username can only use letters, numbers, dots, dashes and underscores')),
  password,
});

/** The Register tab's form, which also asks to confirm the password. */
export const registerFormSchema = z
  .extend(registerSchema, {
    confirmPassword: z.string({ error: 'Please confirm your password' }).check(z.minLength(1, 'Please confirm your password')),
  })
  .check(
    z.refine((form) => form.password === form.confirmPassword, {
      message: 'Passwords do not match',
      path: ['confirmPassword'],
    }),
  );

export const UNLOCK_LINK_INVALID = 'This unlock link is invalid, used or has expired. You can still log in from a device that did not fail.';

/** POST /api/login/unlock: the token of the link e-mailed after repeated wrong passwords. */
export const unlockSchema = z.object({
  token: z.string({ error: UNLOCK_LINK_INVALID }).check(z.minLength(1, UNLOCK_LINK_INVALID), z.maxLength(200, UNLOCK_LINK_INVALID)),
});

export type LoginInput = z.infer<typeof loginSchema>;
export type RegisterInput = z.infer<typeof registerSchema>;

/** The two tabs of /auth. */
export type AuthTab = 'login' | 'register';
