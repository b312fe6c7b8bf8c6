import { afterEach, describe, expect, test } from 'bun:test';
import { toast, toasts } from '../../src/islands/lib/toast.ts';
import { seededApp } from '../helpers/app.ts';
import { all, textOf } from '../helpers/html.ts';

/*
 * The toasts islands raise live in the browser's copy of a module; the server renders only the
 * toast a form post carried over (the flash cookie). A process that runs islands and renders
 * pages as the server, as a test worker does, once showed an island's 'You won!' on another
 * test's page in place of its flash.
 */

afterEach(() => {
  toasts.value = [];
});

describe('a page shows the server’s toast only', () => {
  test('a toast raised by an island in this process is not on the page; the flash is', async () => {
    const { client } = await seededApp();
    const visitor = client();
    toast({ title: 'From an island', description: 'raised in this process' });
    const plain = await (await visitor.get('/products')).text();
    expect(textOf(plain)).not.toContain('From an island');
    expect(all(plain, '[data-toast]')).toHaveLength(0);

    visitor.cookies.set('csa_flash', encodeURIComponent(JSON.stringify({ title: 'Limit saved', description: 'As the form said.' })));
    const flashed = await (await visitor.get('/products')).text();
    expect(all(flashed, '[data-toast]').map(textOf)).toEqual([expect.stringContaining('Limit saved As the form said.')]);
    expect(textOf(flashed)).not.toContain('From an island');
  });
});
