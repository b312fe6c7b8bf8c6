import { Hono } from 'hono';
import { ProductCard } from '../../components/ProductCard.tsx';
import { homeGalleries, productTypeLabels, productTypes } from '../../domain/catalog.ts';
import type { AppEnv } from '../../http/context.ts';
import { renderPage } from '../../http/render.tsx';

/** Home: four galleries, each up to 4 products of its type, with View All. */
export const homePages = new Hono<AppEnv>().get('/', (c) => {
  const galleries = homeGalleries(c.var.deps.db);
  let position = 0;
  return renderPage(
    c,
    { path: '/' },
    <>
      <section className="rounded-3xl bg-ink text-white px-5 py-7 sm:px-8 sm:py-10 mb-8">
        <p className="m-0 text-xs font-semibold uppercase tracking-widest text-coral-light">Laguna Beach · ZIP 92651</p>
        <h1 className="m-0 mt-2 text-3xl sm:text-4xl font-extrabold leading-tight">Pay for it, or play for it.</h1>
        <p className="m-0 mt-3 max-w-xl text-slate-200">
          Designer sunglasses, tees, shoes and books. Buy now with free delivery in 2-3 hours, or pay $1, pick 5 influencers and win
          it for $1.
        </p>
        <div className="mt-5 flex flex-wrap gap-3">
          <a href="/scoreboard" className="rounded-full bg-coral-dark px-5 py-2.5 text-sm font-bold text-white no-underline hover:bg-coral">
            See live games
          </a>
          <a href="/tutorial" className="rounded-full bg-white/10 px-5 py-2.5 text-sm font-bold text-white no-underline hover:bg-white/20">
            How it works
          </a>
        </div>
      </section>
      {productTypes.map((type) => {
        const label = productTypeLabels[type];
        const items = galleries[type];
        const headingId = `gallery-${type}`;
        return (
          <section key={type} aria-labelledby={headingId} className="mb-10">
            <div className="mb-3 flex items-baseline justify-between">
              <h2 id={headingId} className="m-0 text-xl font-extrabold">
                {label.plural}
              </h2>
              <a href={`/products?type=${type}`} className="text-sm font-semibold text-sea-dark">
                View All <span className="sr-only">{label.plural}</span>
              </a>
            </div>
            {items.length === 0 ? (
              <p className="rounded-xl bg-white p-6 text-center text-slate-600">{`No ${label.emptyName} available. Check back soon!`}</p>
            ) : (
              <div className="grid grid-cols-2 lg:grid-cols-4 gap-3 sm:gap-4">
                {items.map((product) => (
                  <ProductCard key={product.id} product={product} position={position++} eager={type === 'sunglasses'} />
                ))}
              </div>
            )}
          </section>
        );
      })}
    </>,
  );
});
