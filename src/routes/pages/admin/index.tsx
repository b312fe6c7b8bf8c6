import { parsePage } from '../../../components/Pager.tsx';
import { Hono } from 'hono';
import { verifyAdminPin } from '../../../domain/accounts/admin-pin.ts';
import { listBusinessApplications } from '../../../domain/accounts/business.ts';
import { APPLICATIONS_SHOWN } from './applications.tsx';
import { changeOrderStatus, findOrderForAdmin, listOrdersForAdmin } from '../../../domain/orders/admin-orders.ts';
import { ordersCsv } from '../../../domain/orders/admin-orders-csv.ts';
import { formatDateTime } from '../../../components/format.ts';
import { OrderStatusConfirm, PackingSlip } from './orders.tsx';
import { createProduct, updateProduct } from '../../../domain/catalog/catalog-admin.ts';
import {
  adminProductList,
  findProduct,
  isProductType,
  productIdOf,
  productTitle,
  productTypeLabels,
  productView,
  type ProductType,
} from '../../../domain/catalog/catalog.ts';
import { DomainError } from '../../../domain/errors.ts';
import { gatewayViews, paymentsNeedingAttention, resolvePayment } from '../../../domain/payments/payment-review.ts';
import { PRODUCT_FLAGS, productFormPost } from '../../../shared/schemas/product.ts';
import { catalogWriter } from '../../../http/domain-deps.ts';
import { safeNextPath, type AppContext, type AppEnv } from '../../../http/context.ts';
import { setFlash } from '../../../http/flash.ts';
import { currentPath, renderPage } from '../../../http/render.tsx';
import { formBody, idFrom, pathId, validForm } from '../../../http/request.ts';
import { adminPageQuery, adminPinForm, orderStatusForm, paymentResolveForm } from '../../../shared/schemas/admin.ts';
import { adminGate, showPinScreen } from './gate.tsx';
import { adminGameTools } from './game-tools.tsx';
import { adminNotFound, productRemoval } from './product-removal.tsx';
import { catalogueExport } from './catalogue-export.ts';
import { listGamesForAdmin } from '../../../domain/games/admin-games.ts';
import { listInfluencersForAdmin } from '../../../domain/games/influencers-admin.ts';
import type { AttentionRow } from './attention.tsx';
import { AdminPanel, formRoute } from './panel.tsx';
import { openReturnRequests } from '../../../domain/orders/aftersale.ts';
import { afterSaleForms } from './aftersale-forms.tsx';
import { emptyValues, ProductForm, valuesOf, type FormValues } from './product-form.tsx';
import { withCurrentCounts } from './product-sizes.tsx';
import { variantsOf } from '../../../domain/inventory/variants.ts';
import { requireUserPage } from '../../../http/guards.ts';
import { adminAuctionRows, auctionNoteOf } from '../../../domain/auctions/admin-views.ts';
import { ADMIN_AUCTION_FILTERS, type AdminAuctionFilter } from '../../../shared/schemas/auctions.ts';
import { adminAuctionPages } from './auction-routes.tsx';
import { adminStrikePages } from './auction-strikes.tsx';
import { strikesForAdmin } from '../../../domain/auctions/strikes.ts';
import { adminPromotionRoutes, PromotionsTab } from './promotions/index.tsx';

const kindTypes: Record<string, ProductType> = { product: 'sunglasses', tshirt: 'tshirt', shoe: 'shoe', book: 'book' };

/** Spec section 8's success titles: the generic product form says Product, the others their type. */
function savedTitle(type: ProductType, created: boolean): string {
  const noun = type === 'sunglasses' ? 'Product' : productTypeLabels[type].singular;
  return `${noun} ${created ? 'created' : 'updated'}`;
}

/** The rules name the SKU by its stored name, `model`; the form calls the field `sku`. */
function formErrors(error: DomainError): Record<string, string> {
  if (!error.fields) return { _: error.message };
  const { model, ...rest } = error.fields;
  return model ? { ...rest, sku: model } : rest;
}

/** The posted product form as the form shows it again (a checkbox left unticked sends nothing: off), and the image file. */
function formValues(post: Record<string, string | File | undefined>): { raw: FormValues; image: File | null } {
  const raw: FormValues = {};
  for (const [key, value] of Object.entries(post)) if (typeof value === 'string') raw[key] = value;
  for (const flag of PRODUCT_FLAGS) raw[flag] = post[flag] === 'on' || post[flag] === 'true';
  return { raw, image: post.image instanceof File ? post.image : null };
}

/** Resolves a form route to its type and product; null when the route names nothing. */
function formTarget<E extends AppEnv>(c: AppContext<E>) {
  const kind = c.req.param('kind')!;
  const idParam = c.req.param('id');
  if (idParam === 'new') {
    const queryType = c.req.query('type');
    const type = kind === 'product' && isProductType(queryType) ? queryType : kindTypes[kind]!;
    const query = kind === 'product' && type !== 'sunglasses' ? `?type=${type}` : '';
    return { type, product: undefined, action: `/admin/${kind}/new${query}` };
  }
  const id = productIdOf(idParam);
  const stored = id === null ? undefined : findProduct(c.env.deps.db, id);
  if (!stored) return null;
  const product = productView(stored);
  return { type: product.productType, product, action: `${formRoute[product.productType]}/${product.id}` };
}

/** The admin panel, its PIN screen, the product forms and deletion, all without JavaScript. */
/** The payments that need a person, with what the gateway says (never more than 2 s of waiting). */
async function attentionRows<E extends AppEnv>(c: AppContext<E>): Promise<AttentionRow[]> {
  const items = paymentsNeedingAttention(c.env.deps.db, c.env.deps.clock.now());
  if (items.length === 0) return [];
  const views = await gatewayViews(c.env.deps, items, 2000);
  return items.map((item) => ({ ...item, gateway: views.get(item.paymentId)! }));
}

export const adminPages = new Hono<AppEnv>()
  .use('/admin', requireUserPage, adminGate)
  .use('/admin/*', requireUserPage, adminGate)
  .route('/', adminGameTools)
  .route('/', afterSaleForms)
  .route('/', productRemoval)
  .route('/', catalogueExport)
  .route('/', adminAuctionPages)
  .route('/', adminStrikePages)
  .route('/', adminPromotionRoutes)
  .get('/admin', async (c) => {
    const { tab, q, status: orderStatus, donations } = adminPageQuery.parse(c.req.query());
    const products = isProductType(tab) ? adminProductList(c.env.deps.db, tab, q) : [];
    const orders = tab === 'orders' ? listOrdersForAdmin(c.env.deps.db, { status: orderStatus, donations }) : [];
    const applications = tab === 'applications' ? listBusinessApplications(c.env.deps.db, APPLICATIONS_SHOWN) : [];
    const attention = tab === 'orders' ? await attentionRows(c) : [];
    const returns = tab === 'orders' ? openReturnRequests(c.env.deps.db) : [];
    const influencers = tab === 'influencers' ? listInfluencersForAdmin(c.env.deps.db) : [];
    const page = parsePage(c.req.query('page'));
    const games = tab === 'games' ? listGamesForAdmin(c.env.deps.db, page) : undefined;
    // The Auctions tab's own filter shares `status` with the Orders tab's: read here, forgiving like the rest.
    const wanted = c.req.query('status') as AdminAuctionFilter;
    const auctionFilter: AdminAuctionFilter = ADMIN_AUCTION_FILTERS.includes(wanted) ? wanted : 'running';
    const auctions = tab === 'auctions' ? adminAuctionRows(c.env.deps.db, auctionFilter, c.env.deps.clock.now()) : [];
    const strikes = tab === 'auctions' ? strikesForAdmin(c.env.deps.db, c.env.deps.clock.now()) : [];
    const promotions = tab === 'promotions' ? <PromotionsTab c={c} /> : undefined;
    return renderPage(
      c,
      { title: 'Admin Panel', path: '/admin', noindex: true },
      <AdminPanel
        tab={tab}
        q={q}
        products={products}
        orders={orders}
        orderStatus={orderStatus}
        donations={donations}
        applications={applications}
        attention={attention}
        returns={returns}
        influencers={influencers}
        games={games}
        auctions={auctions}
        auctionFilter={auctionFilter}
        strikes={strikes}
        promotions={promotions}
        page={page}
      />,
    );
  })
  .post(
    '/admin/payments/:id{[0-9]+}/resolve',
    idFrom('Payment'),
    validForm(paymentResolveForm, 'Payment not changed', () => '/admin?tab=orders'),
    async (c) => {
      // Needs attention: check with Square, mark paid or failed, retry, dismiss; then back with a toast.
      const body = c.req.valid('form');
      try {
        if (body.action === 'mark_failed' && body.confirmed !== 'yes')
          throw new DomainError(400, 'Tick "I checked: no money was taken" to mark a payment failed.');
        const message = await resolvePayment(c.env.deps, pathId(c), body.action, {
          gatewayPaymentId: body.gatewayPaymentId,
          overrideReason: body.overrideReason,
          actor: c.get('user')?.username,
        });
        setFlash(c, { title: 'Payment updated', description: message });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        setFlash(c, { title: 'Payment not changed', description: error.message, variant: 'destructive' });
      }
      return c.redirect('/admin?tab=orders', 303);
    },
  )
  .post(
    '/admin/orders/:id{[0-9]+}/status',
    idFrom('Order'),
    validForm(orderStatusForm, 'Update failed', () => '/admin?tab=orders'),
    async (c) => {
      // Orders tab: Mark Delivered / Cancel Order, then back to the tab (and its filter) with a toast.
      const body = c.req.valid('form');
      const filter = body.filter ? `&status=${body.filter}` : '';
      const { db, clock, gateway } = c.env.deps;
      if (body.confirmed !== 'yes') {
        // The list's button asks first: nothing changes until the admin confirms on this step.
        const order = findOrderForAdmin(db, pathId(c));
        if (!order) {
          setFlash(c, { title: 'Update failed', description: 'Order not found.', variant: 'destructive' });
          return c.redirect(`/admin?tab=orders${filter}`, 303);
        }
        return renderPage(
          c,
          { title: 'Confirm order change', path: '/admin', noindex: true },
          <OrderStatusConfirm order={order} to={body.status} filter={body.filter ?? null} />,
          { backHref: `/admin?tab=orders${filter}` },
        );
      }
      try {
        const result = await changeOrderStatus({ db, clock, gateway }, pathId(c), body.status);
        setFlash(c, { title: 'Order updated', description: result.message });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        setFlash(c, { title: 'Update failed', description: error.message, variant: 'destructive' });
      }
      return c.redirect(`/admin?tab=orders${filter}`, 303);
    },
  )
  .get('/admin/orders/:id{[0-9]+}/packing-slip', idFrom('Order'), (c) => {
    const order = findOrderForAdmin(c.env.deps.db, pathId(c));
    if (!order) return c.notFound();
    return renderPage(c, { title: `Packing slip #${order.id}`, path: '/admin', noindex: true }, <PackingSlip order={order} />, {
      backHref: '/admin?tab=orders',
    });
  })
  .get('/admin/orders.csv', (c) => {
    const { status, donations } = adminPageQuery.parse({ ...c.req.query(), tab: 'orders' });
    const csv = ordersCsv(listOrdersForAdmin(c.env.deps.db, { status, donations }), formatDateTime);
    const day = new Date(c.env.deps.clock.now()).toISOString().slice(0, 10);
    return c.body(csv, 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="orders-${donations ? 'donations' : (status ?? 'all')}-${day}.csv"`,
      'Cache-Control': 'no-store',
    });
  })
  .post(
    '/admin/pin',
    validForm(adminPinForm, 'Access denied', () => '/admin'),
    async (c) => {
      const body = c.req.valid('form');
      const next = safeNextPath(body.next ?? '/admin');
      const { db, clock, adminPin, limits } = c.env.deps;
      try {
        verifyAdminPin(db, clock, c.get('session').id, limits.pinFailuresByUser, String(c.get('user').id), body.pin, adminPin);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        const locked = error.status === 429;
        return showPinScreen(c, next, {
          status: locked ? 429 : 401,
          error: error.message,
          toast: { title: 'Access denied', description: locked ? error.message : 'Invalid PIN entered.', variant: 'destructive' },
        });
      }
      setFlash(c, { title: 'Access granted', description: 'Welcome to the admin panel.' });
      return c.redirect(next.startsWith('/admin') ? next : '/admin', 303);
    },
  )
  .get('/admin/:kind{product|tshirt|shoe|book}/:id{new|[0-9]+}', (c) => {
    const target = formTarget(c);
    if (!target) return adminNotFound(c);
    // A product's form lives at its own type's route.
    if (target.product && !c.req.path.startsWith(`${formRoute[target.type]}/`)) return c.redirect(target.action, 302);
    const values = target.product ? valuesOf(target.product, variantsOf(c.env.deps.db, target.product.id)) : emptyValues;
    const label = productTypeLabels[target.type].singular;
    return renderPage(
      c,
      { title: target.product ? `Edit ${label}` : `Add ${label}`, path: c.req.path, noindex: true },
      <ProductForm
        type={target.type}
        product={target.product}
        action={target.action}
        values={values}
        errors={{}}
        auctionNote={target.product ? auctionNoteOf(c.env.deps.db, target.product.id, c.env.deps.clock.now(), formatDateTime) : undefined}
      />,
      { backHref: `/admin?tab=${target.type}` },
    );
  })
  .post(
    '/admin/:kind{product|tshirt|shoe|book}/:id{new|[0-9]+}',
    formBody(productFormPost, (c) => {
      const creating = c.req.param('id') === 'new';
      setFlash(c, {
        title: creating ? 'Creation failed' : 'Update failed',
        description: 'The form could not be read. Please try again.',
        variant: 'destructive',
      });
      return c.redirect(currentPath(c), 303);
    }),
    async (c) => {
      const target = formTarget(c);
      if (!target) return adminNotFound(c);
      const creating = !target.product;
      const { raw, image } = formValues(c.req.valid('form'));
      try {
        const saved = creating
          ? await createProduct(catalogWriter(c), { ...raw, productType: target.type }, { file: image })
          : await updateProduct(catalogWriter(c), target.product!.id, { ...raw, productType: target.type }, { file: image });
        const { name, subtitle } = productTitle(productView(saved));
        setFlash(c, { title: savedTitle(target.type, creating), description: `${name} ${subtitle} ${creating ? 'is now in the store' : 'has been saved'}.` });
        return c.redirect(`/admin?tab=${target.type}`, 303);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        const label = productTypeLabels[target.type].singular;
        // The stock moved since the form opened: the form is kept, and now carries the count its error names.
        const current = error.status === 409 && error.fields?.quantity && target.product ? findProduct(c.env.deps.db, target.product.id) : undefined;
        const moved = error.status === 409 && target.product ? withCurrentCounts(raw, variantsOf(c.env.deps.db, target.product.id)) : raw;
        const values = current ? { ...moved, quantitySeen: String(current.quantity) } : moved;
        return renderPage(
          c,
          { title: creating ? `Add ${label}` : `Edit ${label}`, path: c.req.path, noindex: true },
          <ProductForm type={target.type} product={target.product} action={target.action} values={values} errors={formErrors(error)} />,
          {
            status: error.status === 413 ? 413 : error.status === 404 ? 404 : error.status === 409 ? 409 : 400,
            toast: { title: creating ? 'Creation failed' : 'Update failed', description: error.message, variant: 'destructive' },
          },
        );
      }
    },
  );
