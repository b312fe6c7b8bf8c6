import { describe, expect, test } from 'bun:test';
import { serializeProps } from '../../src/components/Island.tsx';
import { pageTitle } from '../../src/components/Document.tsx';
import { parseDescription, resolveImageUrl, stockLabel } from '../../src/domain/catalog.ts';
import { loginSchema, registerFormSchema } from '../../src/shared/schemas/auth.ts';
import { fieldErrorsOf } from '../../src/shared/schemas/field-errors.ts';
import { generateSessionToken, sessionIdFromToken } from '../../src/domain/sessions.ts';
import { safeNextPath } from '../../src/http/context.ts';

describe('island props', () => {
  test('cannot close their script element or open a comment', () => {
    const json = serializeProps({ text: '</script><script>alert(1)</script><!-- & \u2028' });
    expect(json).not.toContain('<');
    expect(json).not.toContain('>');
    expect(JSON.parse(json).text).toBe('</script><script>alert(1)</script><!-- & \u2028');
  });
});

describe('titles', () => {
  test('home is the site name alone, other pages are "{title} | {site}"', () => {
    const site = { siteName: 'CSA', publicUrl: 'http://x' };
    expect(pageTitle(site)).toBe('CSA');
    expect(pageTitle(site, 'Login')).toBe('Login | CSA');
  });
});

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

describe('sessions', () => {
  test('tokens are 32 base32 characters and only their SHA-256 is an id', () => {
    const token = generateSessionToken();
    expect(token).toMatch(/^[a-z2-7]{32}$/);
    expect(generateSessionToken()).not.toBe(token);
    expect(sessionIdFromToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(sessionIdFromToken(token)).toBe(sessionIdFromToken(token));
  });

  test('next paths stay on this site', () => {
    expect(safeNextPath('/cart')).toBe('/cart');
    expect(safeNextPath('//evil.example')).toBe('/');
    expect(safeNextPath('/\\evil.example')).toBe('/');
    expect(safeNextPath('https://evil.example')).toBe('/');
    expect(safeNextPath(undefined)).toBe('/');
  });
});

describe('catalogue helpers', () => {
  test('image path resolution of spec section 3', () => {
    expect(resolveImageUrl('', 'shoe')).toBe('/static/images/defaults/shoe.svg');
    expect(resolveImageUrl('   ', 'book')).toBe('/static/images/defaults/book.svg');
    expect(resolveImageUrl('uploads/null.png', 'tshirt')).toBe('/static/images/defaults/tshirt.svg');
    expect(resolveImageUrl('/x/undefined', 'sunglasses')).toBe('/static/images/defaults/sunglasses.svg');
    expect(resolveImageUrl('https://cdn.example/a.png', 'shoe')).toBe('https://cdn.example/a.png');
    expect(resolveImageUrl('data:image/png;base64,AAAA', 'shoe')).toBe('data:image/png;base64,AAAA');
    expect(resolveImageUrl('uploads/a.png', 'shoe')).toBe('/uploads/a.png');
    expect(resolveImageUrl('/uploads/a.png', 'shoe')).toBe('/uploads/a.png');
  });

  test('description markers', () => {
    expect(parseDescription('BADGE:New;;Fresh frames')).toEqual({ badge: 'New', text: 'Fresh frames' });
    expect(parseDescription('AUTHOR:John Steinbeck;;A street in Monterey')).toEqual({ author: 'John Steinbeck', text: 'A street in Monterey' });
    expect(parseDescription('Plain')).toEqual({ text: 'Plain' });
  });

  test('stock labels of spec section 4', () => {
    expect(stockLabel(0)).toBe('Out of Stock');
    expect(stockLabel(1)).toBe('Low Stock');
    expect(stockLabel(5)).toBe('Low Stock');
    expect(stockLabel(6)).toBe('In Stock');
  });
});
