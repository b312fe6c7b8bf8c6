import { noFile, png } from './admin-tools.ts';
import { seededApp, testApp, type TestApp } from './app.ts';
import { allProducts } from './products.ts';
import { fieldErrors, first, formFields, hrefsOf, mainOf, text, type Html } from './html.ts';

/*
 * Shared by the tests of the server-rendered admin product pages (spec section 2, "Admin panel"
 * and "Admin product forms"), driven like a browser without JavaScript: the four product types
 * and their routes, the seeded products each test starts from, the forms as a browser fills
 * them, and what the page and the database say afterwards.
 */

export type Kind = 'sunglasses' | 'tshirt' | 'shoe' | 'book';

export const UPLOAD_URL = /^\/uploads\/[a-f0-9]{32}\.png$/;
export const IMAGE_TYPE_MESSAGE = 'The image must be a JPEG, PNG, WebP or GIF file.';
export const FLAGS = ['buyNowEnabled', 'bidEnabled', 'playEnabled', 'halfPriceEnabled', 'mysteryBoxEnabled', 'buyOnePlayFreeEnabled', 'donateEnabled'] as const;

/** Each type's form route (spec section 2's route table). */
export const ROUTE: Record<Kind, string> = { sunglasses: '/admin/product', tshirt: '/admin/tshirt', shoe: '/admin/shoe', book: '/admin/book' };
export const LABEL: Record<Kind, string> = { sunglasses: 'Sunglasses', tshirt: 'T-Shirt', shoe: 'Shoe', book: 'Book' };
/** One seeded product of each type (by SKU), and one that belongs to another type. */
export const SEEDED: Record<Kind, { model: string; name: string; otherModel: string; otherName: string }> = {
  sunglasses: { model: 'RB3025-L0205', name: 'Ray-Ban', otherModel: '38504-WHI', otherName: 'Patagonia' },
  tshirt: { model: '38504-WHI', name: 'Patagonia', otherModel: 'CW2288-111', otherName: 'Nike' },
  shoe: { model: 'CW2288-111', name: 'Nike', otherModel: 'BK-JAWS-001', otherName: 'Jaws' },
  book: { model: 'BK-OLDMAN-001', name: 'The Old Man and the Sea', otherModel: 'RB3025-L0205', otherName: 'Ray-Ban' },
};

/** A store with the seed catalogue, or an empty one for tests that count every row they make. */
export function productStore({ seed = true } = {}): Promise<TestApp> {
  return seed ? seededApp() : testApp();
}

/** The ids of the products of one type in the store, in order. */
export const idsOfType = (ctx: TestApp, type: Kind) =>
  allProducts(ctx)
    .filter((p) => p.productType === type)
    .map((p) => p.id)
    .sort((a, b) => a - b);

// ---------------------------------------------------------------- the pages

/** The message shown under a field (its `field-{name}-error` element), if any. */
export const fieldError = (html: Html, name: string) => text(html, `p#field-${name}-error`);

/** Every field message on the page, as "{field}: {message}". */
export const allFieldErrors = (html: Html) => Object.entries(fieldErrors(html, 'field-')).map(([name, message]) => `${name}: ${message}`);

/** Product ids listed on the panel, from the rows' Edit links. */
export function listedIds(html: Html): number[] {
  return hrefsOf(mainOf(html))
    .map((href) => /^\/admin\/(?:product|tshirt|shoe|book)\/(\d+)$/.exec(href)?.[1])
    .filter((id) => id !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

// ---------------------------------------------------------------- the forms

/** A multipart body as a browser builds it; `image` defaults to an empty file input. */
export function multipart(fields: Record<string, string | File>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (!('image' in fields)) form.append('image', noFile());
  return form;
}

/** Valid new-product fields for each type, as typed into its form. */
export const NEW_FIELDS: Record<Kind, Record<string, string>> = {
  sunglasses: {
    productType: 'sunglasses',
    brand: 'Form Optics',
    sku: 'FO-100',
    size: '52-18-140',
    badge: 'New',
    price: '149.5',
    quantity: '4',
    description: 'Hand-made acetate frames.',
    playEnabled: 'on',
    donateEnabled: 'on',
  },
  tshirt: {
    productType: 'tshirt',
    brand: 'Form Tees',
    sku: 'FT-200',
    // Tees and shoes are edited by size (issue 38): the form's first Sizes row.
    'variants.0.size': 'L',
    'variants.0.sku': 'FT-200-L',
    'variants.0.quantity': '10',
    price: '29.99',
    description: 'Organic cotton.',
    buyNowEnabled: 'on',
  },
  shoe: {
    productType: 'shoe',
    brand: 'Form Kicks',
    sku: 'FK-300',
    'variants.0.size': '10.5',
    'variants.0.sku': 'FK-300-105',
    'variants.0.quantity': '0',
    price: '120',
    description: 'Trail runner.',
    bidEnabled: 'on',
    halfPriceEnabled: 'on',
  },
  book: {
    productType: 'book',
    name: 'Salt & Sand',
    author: 'Jane Doe',
    pages: '320',
    sku: 'BK-SALT-001',
    price: '15',
    quantity: '2',
    summary: 'Stories from the coast.',
    mysteryBoxEnabled: 'on',
    buyOnePlayFreeEnabled: 'on',
  },
};

/** The stock field of a type's form: tees and shoes set it per size (the first Sizes row). */
export const stockName = (type: Kind) => (type === 'tshirt' || type === 'shoe' ? 'variants.0.quantity' : 'quantity');

/** The fields a browser would submit from the page's product form, unchanged. */
export function formFieldsOf(html: Html): Record<string, string> {
  const form = first(mainOf(html), 'form[enctype="multipart/form-data"]');
  if (!form) throw new Error('the page has no product form');
  return formFields(form);
}

/** The new-product form of `type` with a PNG; a change to undefined leaves that field out. */
export function newForm(type: Kind, changes: Record<string, string | File | undefined> = {}): FormData {
  const fields: Record<string, string | File> = { ...NEW_FIELDS[type], image: png('photo.png') };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete fields[name];
    else fields[name] = value;
  }
  return multipart(fields);
}
