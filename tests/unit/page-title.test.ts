import { describe, expect, test } from 'bun:test';
import { pageTitle } from '../../src/components/Document.tsx';

describe('titles', () => {
  test('home is the site name alone, other pages are "{title} | {site}"', () => {
    const site = { siteName: 'CSA', publicUrl: 'http://x' };
    expect(pageTitle(site)).toBe('CSA');
    expect(pageTitle(site, 'Login')).toBe('Login | CSA');
  });
});
