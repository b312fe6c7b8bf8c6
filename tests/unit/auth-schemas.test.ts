import { describe, expect, test } from 'bun:test';
import { loginSchema, registerFormSchema } from '../../src/shared/schemas/auth.ts';
import { fieldErrorsOf } from '../../src/shared/schemas/field-errors.ts';

describe('sign-in rules', () => {
  test('login messages of spec section 5', () => {
    const result = loginSchema.safeParse({ username: '', password: '123' });
    expect(result.success).toBe(false);
    expect(fieldErrorsOf(result.error!)).toEqual({
      username: 'Username is required',
      password: 'Password must be at least 6 characters',
    });
  });

  test('register form messages of spec section 5', () => {
    const missing = registerFormSchema.safeParse({ username: 'a', password: '123456' });
    expect(fieldErrorsOf(missing.error!)).toEqual({ confirmPassword: 'Please confirm your password' });
    const different = registerFormSchema.safeParse({ username: 'a', password: '123456', confirmPassword: '1234567' });
    expect(fieldErrorsOf(different.error!)).toEqual({ confirmPassword: 'Passwords do not match' });
    expect(registerFormSchema.safeParse({ username: 'a', password: '123456', confirmPassword: '123456' }).success).toBe(true);
  });
});
