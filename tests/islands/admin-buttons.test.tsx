import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createElement } from 'react';
import { renderDocument } from '../../src/components/render-document.tsx';
import { Island } from '../../src/components/Island.tsx';
import { registerDom, startPageIslands, unregisterDom } from '../helpers/dom.ts';
import { testManifest } from '../helpers/app.ts';
import { until } from '../helpers/until.ts';

/* The admin form's Saving... button and the delete confirmation dialog, hydrated under happy-dom. */

beforeAll(async () => {
  const manifest = await testManifest();
  const html = renderDocument(
    manifest,
    createElement('main', null, [
      createElement(
        'form',
        { key: 'form', method: 'post', action: '/admin/tshirt/new', id: 'product-form' },
        createElement(Island, { name: 'SubmitButton', props: { label: 'Create T-Shirt', busyLabel: 'Saving...' } }),
      ),
      createElement(Island, {
        key: 'delete',
        name: 'DeleteProductButton',
        props: { productId: 7, label: 'Vans Classic Tee', history: { orders: 0, games: 0 } },
      }),
      createElement(Island, {
        key: 'archive',
        name: 'DeleteProductButton',
        props: { productId: 8, label: 'Ray-Ban Aviator Classic', history: { orders: 2, games: 1 } },
      }),
    ]),
  );
  registerDom({ url: 'http://localhost/admin' });
  await startPageIslands(html);
  await until(() => document.querySelectorAll('[data-hydrated="true"]').length >= 3, 'the islands to hydrate');
});

afterAll(async () => {
  await unregisterDom();
});

describe('SubmitButton', () => {
  test('reads Saving... and refuses a second click while the form posts', async () => {
    const form = document.getElementById('product-form') as HTMLFormElement;
    const button = form.querySelector('button')!;
    expect(button.textContent).toBe('Create T-Shirt');
    form.addEventListener('submit', (event) => event.preventDefault());
    form.dispatchEvent(new Event('submit', { cancelable: true, bubbles: true }));
    await until(() => button.textContent === 'Saving...', 'the busy label');
    expect(button.getAttribute('aria-disabled')).toBe('true');
    const second = new MouseEvent('click', { cancelable: true, bubbles: true });
    button.dispatchEvent(second);
    expect(second.defaultPrevented).toBe(true);
  });
});

describe('DeleteProductButton', () => {
  test('opens the confirmation dialog instead of following its link, and Cancel closes it', async () => {
    const link = [...document.querySelectorAll('a')].find((a) => a.getAttribute('href') === '/admin/products/7/delete')!;
    const dialog = link.parentElement!.querySelector('dialog')!;
    expect(dialog.open).toBe(false);
    const click = new MouseEvent('click', { cancelable: true, bubbles: true });
    link.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    expect(dialog.open).toBe(true);
    expect(dialog.textContent).toContain('Are you sure?');
    expect(dialog.textContent).toContain('This action cannot be undone. This will permanently delete the product.');
    expect(dialog.querySelector('form')!.getAttribute('action')).toBe('/admin/products/7/delete');
    [...dialog.querySelectorAll('button')].find((b) => b.textContent === 'Cancel')!.click();
    expect(dialog.open).toBe(false);
  });
});

describe('DeleteProductButton for a product with history (issue 27)', () => {
  test('reads Archive, and its dialog says how many orders and games and that it will be archived', () => {
    const link = [...document.querySelectorAll('a')].find((a) => a.getAttribute('href') === '/admin/products/8/delete')!;
    expect(link.textContent).toBe('Archive Ray-Ban Aviator Classic');
    link.dispatchEvent(new MouseEvent('click', { cancelable: true, bubbles: true }));
    const dialog = link.parentElement!.querySelector('dialog')!;
    expect(dialog.open).toBe(true);
    expect(dialog.textContent).toContain('This product has 2 orders and 1 game: it will be archived, not deleted.');
    expect([...dialog.querySelectorAll('button[type="submit"]')].map((b) => b.textContent)).toEqual(['Archive']);
  });
});
