import type { ReactNode } from 'react';
import { Pager } from '../../../components/Pager.tsx';
import { Island } from '../../../components/Island.tsx';
import { StockBadge } from '../../../components/ProductCard.tsx';
import { ProductImage } from '../../../components/ProductImage.tsx';
import { productTitle, productTypeLabels, productTypes, type AdminProductView, type ProductType } from '../../../domain/catalog/catalog.ts';
import { formatDollars } from '../../../shared/money.ts';
import type { AdminOrder, OrderStatus } from '../../../domain/orders/admin-orders.ts';
import { AdminOrders } from './orders.tsx';
import type { AttentionRow } from './attention.tsx';
import type { ReturnRequestRow } from '../../../domain/orders/aftersale.ts';
import type { BusinessApplicationView } from '../../../domain/accounts/business.ts';
import { ApplicationsTab } from './applications.tsx';
import type { listGamesForAdmin } from '../../../domain/games/admin-games.ts';
import type { Influencer } from '../../../domain/games/influencers-admin.ts';
import { GamesTab } from './games.tsx';
import { InfluencersTab } from './influencers.tsx';
import { SearchForm } from '../../../components/SearchForm.tsx';
import type { AdminAuctionRow } from '../../../domain/auctions/admin-views.ts';
import type { AdminAuctionFilter } from '../../../shared/schemas/auctions.ts';
import { AuctionsTab } from './auctions-tab.tsx';
import { AuctionStrikes } from './auction-strikes.tsx';
import type { StrikeRow } from '../../../domain/auctions/strikes.ts';

/** Products a page of a product tab shows (each row carries its forms). */
export const PRODUCTS_SHOWN = 50;

export type AdminTab = ProductType | 'orders' | 'auctions' | 'applications' | 'influencers' | 'games' | 'promotions' | 'settings';
export const adminTabs: { key: AdminTab; label: string }[] = [
  ...productTypes.map((type) => ({ key: type as AdminTab, label: productTypeLabels[type].plural })),
  { key: 'orders', label: 'Orders' },
  { key: 'auctions', label: 'Auctions' },
  { key: 'influencers', label: 'Influencers' },
  { key: 'games', label: 'Games' },
  { key: 'applications', label: 'Applications' },
  { key: 'promotions', label: 'Promotions' },
  { key: 'settings', label: 'Settings' },
];

/** The form route of each type (spec section 2's route table). */
export const formRoute: Record<ProductType, string> = {
  sunglasses: '/admin/product',
  tshirt: '/admin/tshirt',
  shoe: '/admin/shoe',
  book: '/admin/book',
};

export function newProductHref(type: ProductType): string {
  return type === 'sunglasses' ? '/admin/product/new?type=sunglasses' : `${formRoute[type]}/new`;
}

function ProductRow({ product }: { product: AdminProductView }) {
  const { name, subtitle } = productTitle(product);
  const archived = product.archivedAt !== null;
  return (
    <li className="flex items-center gap-3 border-b border-slate-100 py-3 last:border-0">
      <ProductImage product={product} size={56} className="h-14 w-14 shrink-0 rounded-lg bg-slate-50 object-contain" />
      <div className="min-w-0 flex-1">
        <p className="m-0 truncate font-semibold">{name}</p>
        <p className="m-0 truncate text-sm text-slate-600">{`${subtitle} · ${product.model}`}</p>
        <p className="m-0 mt-1 flex flex-wrap items-center gap-2 text-sm">
          <span className="font-bold">{formatDollars(product.price)}</span>
          <span className="text-slate-600">{`Qty ${product.quantity}`}</span>
          <StockBadge quantity={product.quantity} />
          {product.playEnabled && <span className="rounded-full bg-coral/10 px-2 py-0.5 text-[11px] font-bold text-coral-dark">Play</span>}
          {archived && <span className="rounded-full bg-slate-200 px-2 py-0.5 text-[11px] font-bold text-slate-700">Archived: not in the shop</span>}
        </p>
      </div>
      <div className="flex shrink-0 flex-col gap-2 sm:flex-row">
        <a
          href={`${formRoute[product.productType]}/${product.id}`}
          className="rounded-lg border border-slate-300 px-3 py-1.5 text-center text-sm font-semibold text-ink no-underline hover:border-ink"
        >
          Edit<span className="sr-only"> {name}</span>
        </a>
        {archived ? (
          <form method="post" action={`/admin/products/${product.id}/restore`} className="m-0">
            <button
              type="submit"
              className="w-full rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-ink cursor-pointer hover:border-ink"
            >
              Restore<span className="sr-only"> {name}</span>
            </button>
          </form>
        ) : (
          <Island
            name="DeleteProductButton"
            mode="idle"
            props={{ productId: product.id, label: `${name} ${subtitle}`, history: { orders: product.orders, games: product.games } }}
          />
        )}
      </div>
    </li>
  );
}

const isProductTabKey = (tab: AdminTab): tab is ProductType => (productTypes as readonly string[]).includes(tab);

/** Spec section 2, admin panel: tabs per type, search by brand or model, add, edit, delete. */
export function AdminPanel({
  tab,
  q,
  products,
  orders = [],
  orderStatus = null,
  donations = false,
  applications = [],
  attention,
  returns = [],
  influencers = [],
  games,
  auctions = [],
  auctionFilter = 'running',
  strikes = [],
  promotions,
  page = 1,
}: {
  tab: AdminTab;
  q: string;
  products: AdminProductView[];
  orders?: AdminOrder[];
  orderStatus?: OrderStatus | null;
  /** The Orders tab's Donations filter. */
  donations?: boolean;
  applications?: BusinessApplicationView[];
  attention?: AttentionRow[];
  /** Return requests no refund has answered yet (Needs attention on the Orders tab). */
  returns?: ReturnRequestRow[];
  influencers?: Influencer[];
  games?: ReturnType<typeof listGamesForAdmin>;
  auctions?: AdminAuctionRow[];
  auctionFilter?: AdminAuctionFilter;
  /** The Auctions tab's unpaid auctions (issue 36). */
  strikes?: StrikeRow[];
  /** The page of a product tab's list, or of the Games tab's open games. */
  page?: number;
  /** The Promotions tab (promotions/index.tsx), rendered by its own sections. */
  promotions?: ReactNode;
}) {
  const isProductTab = isProductTabKey(tab);
  return (
    <div className="mx-auto max-w-4xl">
      <div className="mb-5 flex flex-wrap items-center justify-between gap-3">
        <h1 className="m-0 text-2xl font-extrabold">Admin Panel</h1>
        <a href="/" className="rounded-full border border-slate-300 bg-white px-4 py-2 text-sm font-bold text-ink no-underline hover:border-ink">
          Back to Store
        </a>
      </div>
      <nav aria-label="Admin sections" className="mb-5 flex gap-1 overflow-x-auto rounded-xl bg-slate-100 p-1">
        {adminTabs.map((t) => (
          <a
            key={t.key}
            href={`/admin?tab=${t.key}`}
            aria-current={tab === t.key ? 'page' : undefined}
            className={`whitespace-nowrap rounded-lg px-4 py-2 text-sm font-semibold no-underline ${tab === t.key ? 'bg-white text-ink shadow-sm' : 'text-slate-600 hover:text-ink'}`}
          >
            {t.label}
          </a>
        ))}
      </nav>
      {isProductTab ? (
        <section aria-label={productTypeLabels[tab].plural} className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-6">
          <div className="mb-4 flex flex-wrap items-center gap-3">
            <SearchForm
              id="admin-search"
              action="/admin"
              label="Search by brand or model"
              placeholder="Search by brand or model"
              defaultValue={q}
              keep={{ tab }}
              look="admin"
            />
            <a href={newProductHref(tab)} className="h-10 rounded-lg bg-ink px-4 text-sm font-bold leading-10 text-white no-underline hover:bg-ink-light">
              {`Add ${productTypeLabels[tab].singular}`}
            </a>
            <a href={`/admin/products.csv?type=${tab}`} className="text-sm font-semibold text-sea-dark" download>
              Export CSV<span className="sr-only">{` of the ${productTypeLabels[tab].plural.toLowerCase()}, one row per size`}</span>
            </a>
          </div>
          {products.length === 0 ? (
            <p className="m-0 py-8 text-center text-slate-600">{q ? `No products match “${q}”.` : 'No products available. Add your first product.'}</p>
          ) : (
            <ul className="m-0 list-none p-0">
              {products.slice((page - 1) * PRODUCTS_SHOWN, page * PRODUCTS_SHOWN).map((product) => (
                <ProductRow key={product.id} product={product} />
              ))}
            </ul>
          )}
          <Pager
            base={`/admin?tab=${tab}${q ? `&q=${encodeURIComponent(q)}` : ''}&`}
            page={page}
            hasNext={page * PRODUCTS_SHOWN < products.length}
            label={productTypeLabels[tab].plural}
          />
        </section>
      ) : tab === 'influencers' ? (
        <InfluencersTab people={influencers} />
      ) : tab === 'games' && games ? (
        <GamesTab games={games} page={page} />
      ) : tab === 'promotions' ? (
        promotions
      ) : tab === 'applications' ? (
        <ApplicationsTab applications={applications} />
      ) : tab === 'auctions' ? (
        <>
          <AuctionsTab rows={auctions} filter={auctionFilter} />
          <AuctionStrikes strikes={strikes} />
        </>
      ) : tab === 'orders' ? (
        <AdminOrders orders={orders} status={orderStatus} donations={donations} attention={attention ?? []} returns={returns} />
      ) : (
        <section className="rounded-2xl border border-slate-200 bg-white p-8 text-center">
          <h2 className="m-0 text-lg font-bold">Settings</h2>
          <p className="m-0 mt-2 text-slate-600">Store settings are coming soon</p>
        </section>
      )}
    </div>
  );
}
