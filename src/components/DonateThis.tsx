import type { ProductView } from '../domain/catalog/catalog.ts';

/**
 * 'Donate this' on the product page of a donateEnabled product (issue 29): the single-product
 * checkout in donation mode, where no address is asked and the product goes to the shop's
 * charity partner. Nothing shows for other products, sold-out ones, or a store without a partner.
 */
export function DonateThis({
  product,
  charity,
}: {
  product: ProductView;
  charity: string | null;
  /** The size chosen on the product page (issue 38); undefined when the product has one. */
  variantId?: number;
}) {
  if (!product.donateEnabled || !product.buyNowEnabled || product.quantity <= 0 || !charity) return null;
  return (
    <div data-donate-this="" className="mt-3 rounded-xl border border-sea/40 bg-sea/5 p-3">
      <a
        href={`/checkout?productId=${product.id}&donate=1`}
        className="block rounded-xl border-2 border-sea-dark bg-white py-2.5 text-center font-bold text-sea-dark no-underline hover:bg-sea/10"
      >
        Donate this
      </a>
      <p className="m-0 mt-2 text-sm text-slate-700">{`Buy it for ${charity}, our charity partner in Laguna Beach: no address needed, we hand it over.`}</p>
    </div>
  );
}
