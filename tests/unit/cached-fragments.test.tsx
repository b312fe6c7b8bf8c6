import { describe, expect, test } from 'bun:test';
import { createElement } from 'react';
import fc from 'fast-check';
import { cardKey, ProductCard, ProductGrid } from '../../src/components/ProductCard.tsx';
import type { RenderedFragment } from '../../src/components/render-context.ts';
import { renderTree } from '../../src/components/render-document.tsx';
import type { ProductView } from '../../src/domain/catalog/catalog.ts';
import { testManifest } from '../helpers/app.ts';

function product(id: number, changes: Partial<ProductView> = {}): ProductView {
  return {
    id,
    productType: 'sunglasses',
    name: null,
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
    archivedAt: null,
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
    const grid = createElement(ProductGrid, { products, playable: new Set<number>(), auctions: new Map(), now: 0, eagerCount: 2 });
    const fragments = store();
    const whole = renderTree(manifest, grid).html;
    const first = renderTree(manifest, grid, { fragments }).html;
    const second = renderTree(manifest, grid, { fragments }).html;
    // The eager images' preloads come from the page, with their attributes in another order.
    const same = (html: string) => html.replace(/<link rel="preload" href="([^"]*)" as="image"/g, '<link rel="preload" as="image" href="$1"');
    expect(same(first)).toBe(whole);
    expect(same(second)).toBe(whole);
    expect(second.match(/rel="preload"/g)?.length).toBe(2);
    // Five cards and the grid they make.
    expect(fragments.entries.size).toBe(6);
    expect(second).not.toContain('csa-fragment');
  });

  test('a changed product, or the same product at another place, gets a card of its own', async () => {
    const manifest = await testManifest();
    const fragments = store();
    renderTree(manifest, createElement(ProductGrid, { products: [product(1)], playable: new Set<number>(), auctions: new Map(), now: 0 }), { fragments });
    const repriced = renderTree(
      manifest,
      createElement(ProductGrid, { products: [product(1, { price: 999 })], playable: new Set<number>(), auctions: new Map(), now: 0 }),
      {
        fragments,
      },
    ).html;
    expect(repriced).toContain('$999.00');
    expect(repriced).not.toContain('$101.00');
    const playable = new Set([1, 2]);
    const second = renderTree(
      manifest,
      createElement(ProductGrid, { products: [product(2), product(1, { price: 999 })], playable, auctions: new Map(), now: 0 }),
      {
        fragments,
      },
    ).html;
    // With Buy Now and Bet to cycle through, position 1 shows 'Bet' where position 0 showed 'Buy Now'.
    expect(second.match(/>Bet</g)?.length).toBe(1);
    expect(second).not.toContain('>Bid<');
  });

  test('an image from another site still brings the fallback script when its card is kept', async () => {
    const manifest = await testManifest();
    const fragments = store();
    const grid = createElement(ProductGrid, {
      products: [product(1, { imageUrl: 'https://cdn.example.com/p1.jpg' })],
      playable: new Set<number>(),
      auctions: new Map(),
      now: 0,
    });
    expect(renderTree(manifest, grid, { fragments }).needsImageFallback).toBe(true);
    expect(renderTree(manifest, grid, { fragments }).needsImageFallback).toBe(true);
  });

  test('two cards with the same key are the same HTML, whatever the products (fast-check)', async () => {
    const manifest = await testManifest();
    const card = (p: ProductView, offer: string | null, eager: boolean) =>
      renderTree(manifest, createElement(ProductCard, { product: p, offer, eager, headingLevel: 3, playable: false })).html;
    const offers = [null, 'Buy Now', 'Bid · $1.00 · 2h 14m left'];
    // Tiny domains on purpose: equal keys (and separators, markers, near-equal values) come often.
    const view = fc.record({
      id: fc.constantFrom(1, 2),
      productType: fc.constantFrom('sunglasses' as const, 'book' as const),
      brand: fc.constantFrom('a', 'a|b', 'a"'),
      model: fc.constantFrom('b', '|b', 'b;;'),
      size: fc.constantFrom('', 'L'),
      quantity: fc.constantFrom(0, 3, 5, 6, 10),
      price: fc.constantFrom(1, 1.5),
      imageUrl: fc.constantFrom('/a.svg', 'https://cdn.example.com/a.jpg'),
      description: fc.constantFrom('', 'BADGE:New;;text', 'BADGE:New;;other', 'AUTHOR:Ann;;', 'AUTHOR:Ann|b;;', 'plain'),
      bidEnabled: fc.boolean(),
    });
    const fields = ['id', 'productType', 'brand', 'model', 'size', 'quantity', 'price', 'imageUrl', 'description', 'bidEnabled'] as const;
    let sameKeys = 0;
    fc.assert(
      // The second product is the first with one field from another: often the same card.
      fc.property(
        view,
        view,
        fc.constantFrom(...fields),
        fc.constantFrom(...offers),
        fc.constantFrom(...offers),
        fc.boolean(),
        (a, other, field, at, bt, eager) => {
          const first = product(a.id, a);
          const second = product(a.id, { ...a, [field]: other[field] });
          if (cardKey(first, at, eager, 3, false) !== cardKey(second, bt, eager, 3, false)) return;
          sameKeys++;
          expect(card(second, bt, eager)).toBe(card(first, at, eager));
        },
      ),
      { numRuns: 3000 },
    );
    expect(sameKeys).toBeGreaterThan(300);
    // What a card does not show shares one card: the size, the flags, the stock within its level.
    expect(cardKey(product(1, { quantity: 12, size: 'L', bidEnabled: true }), 'Buy Now', false, 3, false)).toBe(
      cardKey(product(1, { quantity: 10 }), 'Buy Now', false, 3, false),
    );
  });
});
