import { Hono } from 'hono';
import { productHistory, restoreProduct } from '../../../domain/catalog/catalog-admin.ts';
import { findProduct, productIdOf, productLabel, productView } from '../../../domain/catalog/catalog.ts';
import { DomainError } from '../../../domain/errors.ts';
import { removalPreview, removeProduct } from '../../../flows/end-product.ts';
import { catalogWriter, productRemovalDeps } from '../../../http/domain-deps.ts';
import type { AppContext, AppEnv } from '../../../http/context.ts';
import { setFlash } from '../../../http/flash.ts';
import { renderPage } from '../../../http/render.tsx';
import { removalAction, removalText } from '../../../shared/product-removal.ts';

/*
 * Deleting a product (spec section 2's confirmation) and, for one with orders or games,
 * archiving it instead (issue 27): the confirmation page says which will happen; an archived
 * product is restored from its row. Mounted behind the admin gate in index.tsx.
 */

/** The admin's 'Product Not Found' (its way back is the panel); the product forms answer it too. */
export function adminNotFound<E extends AppEnv>(c: AppContext<E>) {
  return renderPage(
    c,
    { title: 'Product Not Found', path: '/admin', noindex: true },
    <div className="mx-auto max-w-md pt-12 text-center">
      <h1 className="m-0 text-2xl font-extrabold">Product Not Found</h1>
      <p className="mt-3 mb-6 text-slate-600">The product you're looking for doesn't exist or has been removed.</p>
      <a href="/admin" className="inline-block rounded-full bg-ink px-5 py-2.5 text-sm font-bold text-white no-underline">
        Back to Admin Panel
      </a>
    </div>,
    { status: 404 },
  );
}

export const productRemoval = new Hono<AppEnv>()
  .get('/admin/products/:id/delete', (c) => {
    const id = productIdOf(c.req.param('id'));
    const stored = id === null ? undefined : findProduct(c.env.deps.db, id);
    if (!stored) return adminNotFound(c);
    const product = productView(stored);
    const history = productHistory(c.env.deps.db, product.id);
    const open = removalPreview(c.env.deps.db, product.id, c.env.deps.clock.now());
    return renderPage(
      c,
      { title: `${removalAction(history)} product`, path: '/admin', noindex: true },
      <div className="mx-auto max-w-md pt-12">
        <form method="post" action={`/admin/products/${product.id}/delete`} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <h1 className="m-0 text-xl font-bold">Are you sure?</h1>
          <p className="mt-2 text-slate-600">{removalText(history)}</p>
          <p className="m-0 font-semibold">{`${productLabel(product)} (${product.model})`}</p>
          {open.refusal && (
            <p role="alert" className="mt-3 rounded-lg bg-red-50 p-3 text-sm text-red-800">
              {open.refusal}
            </p>
          )}
          {open.ends.length > 0 && (
            <div className="mt-3 text-sm text-slate-700">
              <p className="m-0 font-semibold">What is open on it ends first:</p>
              <ul className="m-0 mt-1 pl-5">
                {open.ends.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </div>
          )}
          <div className="mt-6 flex justify-end gap-3">
            <a href={`/admin?tab=${product.productType}`} className="rounded-lg border border-slate-300 px-4 py-2 text-sm font-bold text-ink no-underline">
              Cancel
            </a>
            <button type="submit" className="rounded-lg bg-red-600 px-4 py-2 text-sm font-bold text-white cursor-pointer">
              {removalAction(history)}
            </button>
          </div>
        </form>
      </div>,
    );
  })
  .post('/admin/products/:id/delete', async (c) => {
    const id = productIdOf(c.req.param('id'));
    const stored = id === null ? undefined : findProduct(c.env.deps.db, id);
    const tab = stored?.productType ?? 'sunglasses';
    try {
      const removal = await removeProduct(productRemovalDeps(c), id ?? 0);
      setFlash(
        c,
        removal.outcome === 'deleted'
          ? { title: 'Product deleted', description: 'The product has been successfully deleted.' }
          : { title: 'Product archived', description: 'It has left the shop; its orders, games, bids and team buys are kept. Restore it from its row.' },
      );
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      setFlash(c, { title: 'Deletion failed', description: error.message, variant: 'destructive' });
    }
    return c.redirect(`/admin?tab=${tab}`, 303);
  })
  .post('/admin/products/:id/restore', (c) => {
    const id = productIdOf(c.req.param('id'));
    const stored = id === null ? undefined : findProduct(c.env.deps.db, id);
    if (!stored) return adminNotFound(c);
    const restored = restoreProduct(catalogWriter(c), stored.id);
    setFlash(c, { title: 'Product restored', description: `${productLabel(restored)} is back in the shop.` });
    return c.redirect(`/admin?tab=${restored.productType}`, 303);
  });
