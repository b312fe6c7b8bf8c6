import { Hono } from 'hono';
import { createProduct, deleteProduct, updateProduct } from '../../domain/catalog-admin.ts';
import { findProduct, listProducts, productIdOf, productView } from '../../domain/catalog.ts';
import { DomainError } from '../../domain/errors.ts';
import { catalogWriter } from '../../http/catalog-writer.ts';
import type { AppContext, AppEnv } from '../../http/context.ts';
import { requireAdminWithPinApi } from '../../http/guards.ts';
import { queryOf } from '../../http/request.ts';
import { productListQuery } from '../../shared/schemas/catalog.ts';

/** Spec section 7's multipart body: `data` (JSON of product fields), `image` (file), `keepExistingImage`. */
async function productForm(c: AppContext): Promise<{ data: Record<string, unknown>; image: Blob | null }> {
  const type = c.req.header('content-type') ?? '';
  if (type.includes('application/json')) {
    const data = await c.req.json().catch(() => {
      throw new DomainError(400, 'The request body is not valid JSON.');
    });
    if (!data || typeof data !== 'object' || Array.isArray(data)) throw new DomainError(400, 'Send the product as a JSON object.');
    return { data: data as Record<string, unknown>, image: null };
  }
  if (!type.includes('multipart/form-data')) {
    throw new DomainError(415, 'Send the product as multipart/form-data with a `data` field (JSON) and an `image` file.');
  }
  const form = await c.req.formData().catch(() => {
    throw new DomainError(400, 'The form data could not be read.');
  });
  const rawData = form.get('data');
  let data: unknown = {};
  if (typeof rawData === 'string' && rawData.trim() !== '') {
    try {
      data = JSON.parse(rawData);
    } catch {
      throw new DomainError(400, 'The `data` field must be JSON.', { data: 'The `data` field must be JSON.' });
    }
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new DomainError(400, 'The `data` field must be a JSON object.');
  const image = form.get('image');
  return { data: data as Record<string, unknown>, image: image instanceof Blob ? image : null };
}

function idParam(c: AppContext): number {
  const id = productIdOf(c.req.param('id'));
  if (id === null) throw new DomainError(404, 'Product not found');
  return id;
}

/** Spec section 7: the products calls. Reads are public; writes need an admin who passed the PIN. */
export const productsApi = new Hono<AppEnv>()
  .get('/products', queryOf(productListQuery), (c) => {
    const { type, sort = 'newest', q } = c.req.valid('query');
    return c.json(listProducts(c.var.deps.db, { type, sort, q }));
  })
  .get('/products/:id', (c) => {
    const product = findProduct(c.var.deps.db, idParam(c));
    if (!product) return c.json({ message: 'Product not found' }, 404);
    return c.json(productView(product));
  })
  .post('/products', requireAdminWithPinApi, async (c) => {
    const { data, image } = await productForm(c);
    const product = await createProduct(catalogWriter(c), data, { file: image, url: data.imageUrl });
    return c.json(productView(product), 201);
  })
  .put('/products/:id', requireAdminWithPinApi, async (c) => {
    const id = idParam(c);
    const { data, image } = await productForm(c);
    const product = await updateProduct(catalogWriter(c), id, data, { file: image, url: data.imageUrl });
    return c.json(productView(product));
  })
  .delete('/products/:id', requireAdminWithPinApi, (c) => {
    deleteProduct(catalogWriter(c), idParam(c));
    return c.json({ message: 'Product deleted' });
  });
