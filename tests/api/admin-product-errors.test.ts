import { describe, expect, test } from 'bun:test';
import { adminWithPin } from '../helpers/actors.ts';
import {
  allFieldErrors,
  FLAGS,
  fieldError,
  formFieldsOf,
  IMAGE_TYPE_MESSAGE,
  LABEL,
  multipart,
  NEW_FIELDS,
  newForm,
  productStore,
  ROUTE,
  stockName,
  type Kind,
} from '../helpers/admin-products.ts';
import { allProducts, byId, IMAGES, seeded, uploads } from '../helpers/products.ts';
import type { TestApp } from '../helpers/app.ts';
import { attribute, attributes, headingOf, inputValue, isChecked, mainOf, textareaValue, toastOf } from '../helpers/html.ts';

/*
 * A product form the server refuses (spec section 5's product rules; section 8, the failure
 * toasts): the form comes back with each message next to its field and what was typed, and
 * nothing is stored, no upload left behind.
 */

describe('a refused form is shown again', () => {
  async function refused(ctx: TestApp, path: string, form: FormData, status = 400) {
    const admin = await adminWithPin(ctx);
    const before = allProducts(ctx);
    const response = await admin.post(path, { body: form });
    expect(response.status).toBe(status);
    const html = await response.text();
    // Nothing stored, no file left behind.
    expect(allProducts(ctx)).toEqual(before);
    expect(uploads(ctx)).toEqual([]);
    return html;
  }

  test.each([
    ['tshirt', 'price 0', 'price', 'Price must be greater than 0', { price: '0' }],
    ['tshirt', 'no price', 'price', 'Price must be greater than 0', { price: '' }],
    ['tshirt', 'quantity -1', 'variants-0-quantity', 'Quantity cannot be negative', { 'variants.0.quantity': '-1' }],
    ['tshirt', 'no brand', 'brand', 'Brand is required', { brand: '' }],
    ['shoe', 'price -5', 'price', 'Price must be greater than 0', { price: '-5' }],
    ['sunglasses', 'a badge with ;', 'badge', 'Badge cannot contain ;', { badge: 'Hot;;Deal' }],
    ['book', 'an empty author', 'author', 'Author is required', { author: '' }],
    ['book', 'no author field', 'author', 'Author is required', { author: undefined }],
    ['book', 'no name', 'name', 'Book name is required', { name: '' }],
    ['book', 'pages 0', 'pages', 'Pages must be at least 1', { pages: '0' }],
    ['book', 'no pages', 'pages', 'Pages must be at least 1', { pages: '' }],
  ] as [Kind, string, string, string, Record<string, string | undefined>][])(
    'a new %s with %s: 400, the %s field says "%s", Creation failed, typed values kept',
    async (type, _case, field, message, changes) => {
      const ctx = await productStore({ seed: false });
      const html = await refused(ctx, `${ROUTE[type]}/new`, newForm(type, changes));
      const main = mainOf(html);
      expect(headingOf(html)).toBe(`Add ${LABEL[type]}`);
      expect(allFieldErrors(main)).toEqual([`${field}: ${message}`]);
      // A Sizes row's field 'variants.0.quantity' has the id 'field-variants-0-quantity'.
      expect(attribute(main, `input[name="${field.replaceAll('-', '.')}"]`, 'aria-invalid')).toBe('true');
      expect(toastOf(html)).toEqual({ title: 'Creation failed', description: message, variant: 'destructive' });
      // What was typed is still there (the file input cannot be refilled).
      const typed = { ...NEW_FIELDS[type], ...changes };
      expect(inputValue(main, 'sku')).toBe(typed.sku!);
      expect(inputValue(main, 'price')).toBe(typed.price!);
      expect(inputValue(main, stockName(type))).toBe(typed[stockName(type)]!);
      if (type === 'book') {
        expect(inputValue(main, 'name')).toBe(typed.name!);
        expect(inputValue(main, 'author')).toBe(typed.author ?? '');
        expect(inputValue(main, 'pages')).toBe(typed.pages!);
        expect(textareaValue(main, 'summary')).toBe(typed.summary!);
      } else {
        expect(inputValue(main, 'brand')).toBe(typed.brand!);
        expect(textareaValue(main, 'description')).toBe(typed.description!);
      }
      for (const flag of FLAGS) expect(isChecked(main, flag), flag).toBe(typed[flag] === 'on');
    },
  );

  test('a missing SKU: 400, "SKU is required" in the Creation failed toast, typed values kept, nothing stored', async () => {
    const ctx = await productStore({ seed: false });
    const html = await refused(ctx, '/admin/tshirt/new', newForm('tshirt', { sku: '' }));
    expect(headingOf(html)).toBe('Add T-Shirt');
    expect(toastOf(html)).toEqual({ title: 'Creation failed', description: 'SKU is required', variant: 'destructive' });
    expect(inputValue(mainOf(html), 'brand')).toBe('Form Tees');
    expect(inputValue(mainOf(html), 'variants.0.size')).toBe('L');
  });

  // BUG (src/routes/pages/admin/index.tsx, the POST form handler's catch): the schema reports the
  // SKU under its stored name `model`, but the form's field is `sku`, so the message is never
  // shown next to the SKU field (only in the toast). Remove `.failing` once that is fixed.
  test('a missing SKU: "SKU is required" is shown next to the SKU field', async () => {
    const ctx = await productStore({ seed: false });
    const html = await refused(ctx, '/admin/tshirt/new', newForm('tshirt', { sku: '' }));
    expect(fieldError(mainOf(html), 'sku')).toBe('SKU is required');
  });

  test('several errors at once are each shown next to their field', async () => {
    const ctx = await productStore({ seed: false });
    const html = await refused(ctx, '/admin/book/new', newForm('book', { author: '', pages: '0', price: '0', quantity: '-1', image: undefined }));
    const main = mainOf(html);
    expect(fieldError(main, 'author')).toBe('Author is required');
    expect(fieldError(main, 'pages')).toBe('Pages must be at least 1');
    expect(fieldError(main, 'price')).toBe('Price must be greater than 0');
    expect(fieldError(main, 'quantity')).toBe('Quantity cannot be negative');
    expect(fieldError(main, 'image')).toBe('A cover image is required for new books');
    expect(toastOf(html)?.title).toBe('Creation failed');
  });

  test.each([
    ['tshirt', 'An image is required for new t-shirts'],
    ['sunglasses', 'An image is required for new products'],
    ['shoe', 'An image is required for new shoes'],
    ['book', 'A cover image is required for new books'],
  ] as [Kind, string][])('a new %s without an image: "%s"', async (type, message) => {
    const ctx = await productStore({ seed: false });
    const html = await refused(ctx, `${ROUTE[type]}/new`, newForm(type, { image: undefined }));
    expect(allFieldErrors(mainOf(html))).toEqual([`image: ${message}`]);
    expect(toastOf(html)).toEqual({ title: 'Creation failed', description: message, variant: 'destructive' });
  });

  test('a text file as the image: 400 with the image-type message (the domain answers 415, the page 400)', async () => {
    const ctx = await productStore({ seed: false });
    const html = await refused(ctx, '/admin/tshirt/new', newForm('tshirt', { image: new File(['just some notes'], 'notes.txt', { type: 'text/plain' }) }));
    expect(allFieldErrors(mainOf(html))).toEqual([`image: ${IMAGE_TYPE_MESSAGE}`]);
    expect(toastOf(html)).toEqual({ title: 'Creation failed', description: IMAGE_TYPE_MESSAGE, variant: 'destructive' });
  });

  test('a text file that claims to be a PNG is refused the same way', async () => {
    const ctx = await productStore({ seed: false });
    const html = await refused(ctx, '/admin/shoe/new', newForm('shoe', { image: new File(['not a picture'], 'fake.png', { type: 'image/png' }) }));
    expect(fieldError(mainOf(html), 'image')).toBe(IMAGE_TYPE_MESSAGE);
  });

  test('an image over 5 MB: 413 with "The image must be 5 MB or smaller."', async () => {
    const ctx = await productStore({ seed: false });
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(IMAGES.png);
    const html = await refused(ctx, '/admin/tshirt/new', newForm('tshirt', { image: new File([big], 'big.png', { type: 'image/png' }) }), 413);
    expect(fieldError(mainOf(html), 'image')).toBe('The image must be 5 MB or smaller.');
    expect(toastOf(html)?.title).toBe('Creation failed');
  });

  test('an edit with an invalid price: 400, Update failed, the edit form with the current image, the row unchanged', async () => {
    const ctx = await productStore();
    const product = seeded(ctx, '38504-WHI');
    const admin = await adminWithPin(ctx);
    const fields = formFieldsOf(await (await admin.get(`/admin/tshirt/${product.id}`)).text());
    const html = await refused(ctx, `/admin/tshirt/${product.id}`, multipart({ ...fields, price: '0', brand: 'Renamed' }));
    const main = mainOf(html);
    expect(headingOf(html)).toBe('Edit T-Shirt');
    expect(fieldError(main, 'price')).toBe('Price must be greater than 0');
    expect(toastOf(html)).toEqual({ title: 'Update failed', description: 'Price must be greater than 0', variant: 'destructive' });
    expect(inputValue(main, 'brand')).toBe('Renamed');
    expect(attributes(main, '[src]', 'src')).toContain(`${product.imageUrl}?fallback=tshirt`);
    expect(inputValue(main, 'keepExistingImage')).toBe('true');
    expect(byId(ctx, product.id)).toEqual(product);
  });

  test('an edit with a text file as the new image: 400, Update failed, the image kept', async () => {
    const ctx = await productStore();
    const product = seeded(ctx, 'CW2288-111');
    const admin = await adminWithPin(ctx);
    const fields = formFieldsOf(await (await admin.get(`/admin/shoe/${product.id}`)).text());
    const html = await refused(ctx, `/admin/shoe/${product.id}`, multipart({ ...fields, image: new File(['hello'], 'a.txt', { type: 'text/plain' }) }));
    expect(fieldError(mainOf(html), 'image')).toBe(IMAGE_TYPE_MESSAGE);
    expect(toastOf(html)?.title).toBe('Update failed');
    expect(byId(ctx, product.id)).toEqual(product);
  });
});
