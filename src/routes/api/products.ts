import { Hono } from 'hono';
import type * as z from 'zod/mini';
import { createProduct, restoreProduct, updateProduct } from '../../domain/catalog/catalog-admin.ts';
import { removeProduct } from '../../flows/end-product.ts';
import { findProduct, listProducts, productIdOf, productWithVariantsOf } from '../../domain/catalog/catalog.ts';
import { DomainError, validationError } from '../../domain/errors.ts';
import { catalogWriter, productRemovalDeps } from '../../http/domain-deps.ts';
import type { AppContext, AppEnv } from '../../http/context.ts';
import { requireAdminWithPinApi } from '../../http/guards.ts';
import { queryOf } from '../../http/request.ts';
import { productListQuery } from '../../shared/schemas/catalog.ts';
import { type ProductData, productData, productMultipart } from '../../shared/schemas/product.ts';

function checked<T>(schema: z.ZodMiniType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/**
 * Spec section 7's body: JSON product fields (`productData`), or multipart (`productMultipart`)
 * with `data` (the same fields as JSON text), an `image` file and `keepExistingImage`.
 */
async function productForm<E extends AppEnv>(c: AppContext<E>): Promise<{ data: ProductData; image: Blob | null }> {
  const type = c.req.header('content-type') ?? '';
  if (type.includes('application/json')) {
    const body = await c.req.json().catch(() => {
      throw new DomainError(400, 'The request body is not valid JSON.');
    });
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new DomainError(400, 'Send the product as a JSON object.');
    return { data: checked(productData, body), image: null };
  }
  if (!type.includes('multipart/form-data')) {
    throw new DomainError(415, 'Send the product as multipart/form-data with a `data` field (JSON) and an `image` file.');
  }
  const form = await c.req.parseBody({ all: true }).catch(() => {
    throw new DomainError(400, 'The form data could not be read.');
  });
  const { data: text, image } = checked(productMultipart, form);
  let data: unknown = {};
  if (text !== undefined && text.trim() !== '') {
    try {
      data = JSON.parse(text);
    } catch {
      throw new DomainError(400, 'The `data` field must be JSON.', { data: 'The `data` field must be JSON.' });
    }
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new DomainError(400, 'The `data` field must be a JSON object.');
  return { data: checked(productData, data), image: image instanceof Blob ? image : null };
}

function idParam<E extends AppEnv>(c: AppContext<E>): number {
  const id = productIdOf(c.req.param('id'));
  if (id === null) throw new DomainError(404, 'Product not found');
  return id;
}

/** Spec section 7: the products calls. Reads are public; writes need an admin who passed the PIN. */
export const productsApi = new Hono<AppEnv>()
  .get('/products', queryOf(productListQuery), (c) => {
    const { type, sort = 'newest', q, size } = c.req.valid('query');
    return c.json(listProducts(c.env.deps.db, { type, sort, q, size }));
  })
  .get('/products/:id', (c) => {
    const product = findProduct(c.env.deps.db, idParam(c));
    if (!product) return c.json({ message: 'Product not found' }, 404);
    return c.json(productWithVariantsOf(c.env.deps.db, product));
  })
  .post('/products', requireAdminWithPinApi, async (c) => {
    const { data, image } = await productForm(c);
    const product = await createProduct(catalogWriter(c), data, { file: image, url: data.imageUrl });
    return c.json(productWithVariantsOf(c.env.deps.db, product), 201);
  })
  .put('/products/:id', requireAdminWithPinApi, async (c) => {
    const id = idParam(c);
    const { data, image } = await productForm(c);
    const product = await updateProduct(catalogWriter(c), id, data, { file: image, url: data.imageUrl });
    return c.json(productWithVariantsOf(c.env.deps.db, product));
  })
  .delete('/products/:id', requireAdminWithPinApi, async (c) => {
    // What is open on it ends first (or a 409 names it); one with a history is archived instead.
    const { outcome, orders, games } = await removeProduct(productRemovalDeps(c), idParam(c));
    if (outcome === 'deleted') return c.json({ message: 'Product deleted' });
    return c.json({
      message: 'Product archived: it has orders, games, bids or team buys, so it leaves the shop and its history stays.',
      archived: true,
      orders,
      games,
    });
  })
  .post('/products/:id/restore', requireAdminWithPinApi, (c) => {
    const product = restoreProduct(catalogWriter(c), idParam(c));
    return c.json(productWithVariantsOf(c.env.deps.db, product));
  });
