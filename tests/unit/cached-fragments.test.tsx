import { describe, expect, test } from 'bun:test';
import { createElement } from 'react';
import { ProductGrid } from '../../src/components/ProductCard.tsx';
import type { RenderedFragment } from '../../src/components/render-context.ts';
import { renderTree } from '../../src/components/render-document.tsx';
import type { ProductView } from '../../src/domain/catalog.ts';
import { testManifest } from '../helpers/app.ts';

function product(id: number, changes: Partial<ProductView> = {}): ProductView {
  return {
    id,
    productType: 'sunglasses',
    brand: `Brand ${id}`,
    model: `M-${id}`,
    size: '',
    quantity: 5,
    price: 100 + id,
    imageUrl: `/static/images/products/p${id}.svg`,
    description: '',
    buyNowEnabled: true,
    bidEnabled: false,
    playEnabled: true,
    betEnabled: true,
    halfPriceEnabled: false,
    mysteryBoxEnabled: false,
    buyOnePlayFreeEnabled: false,
    donateEnabled: false,
    createdAt: 1,
    ...changes,
  };
}

function store() {
  const entries = new Map<string, RenderedFragment>();
  return { entries, get: (key: string) => entries.get(key), set: (key: string, value: RenderedFragment) => void entries.set(key, value) };
}

describe('product cards rendered once and reused', () => {
  test('a gallery from kept cards is the same HTML as one rendered whole', async () => {
    const manifest = await testManifest();
    const products = [1, 2, 3, 4, 5].map((id) => product(id));
    const grid = createElement(ProductGrid, { products, eagerCount: 2 });
    const fragments = store();
    const whole = renderTree(manifest, grid).html;
    const first = renderTree(manifest, grid, { fragments }).html;
    const second = renderTree(manifest, grid, { fragments }).html;
    // The eager images' preloads come from the page, with their attributes in another order.
    const same = (html: string) => html.replace(/<link rel="preload" href="([^"]*)" as="image"/g, '<link rel="preload" as="image" href="$1"');
    expect(same(first)).toBe(whole);
    expect(same(second)).toBe(whole);
    expect(second.match(/rel="preload"/g)?.length).toBe(2);
    expect(fragments.entries.size).toBe(5);
    expect(second).not.toContain('csa-fragment');
  });

  test('a changed product, or the same product at another place, gets a card of its own', async () => {
    const manifest = await testManifest();
    const fragments = store();
    renderTree(manifest, createElement(ProductGrid, { products: [product(1)] }), { fragments });
    const repriced = renderTree(manifest, createElement(ProductGrid, { products: [product(1, { price: 999 })] }), { fragments }).html;
    expect(repriced).toContain('$999.00');
    expect(repriced).not.toContain('$101.00');
    const second = renderTree(manifest, createElement(ProductGrid, { products: [product(2), product(1, { price: 999 })] }), { fragments }).html;
    // Position 1 shows 'Bid' where position 0 showed 'Buy Now'.
    expect(second.match(/>Bid</g)?.length).toBe(1);
  });

  test('an image from another site still brings the fallback script when its card is kept', async () => {
    const manifest = await testManifest();
    const fragments = store();
    const grid = createElement(ProductGrid, { products: [product(1, { imageUrl: 'https://cdn.example.com/p1.jpg' })] });
    expect(renderTree(manifest, grid, { fragments }).needsImageFallback).toBe(true);
    expect(renderTree(manifest, grid, { fragments }).needsImageFallback).toBe(true);
  });
});
