/*
 * The ways into /mystery (issue 29, item 2), each one line where it is placed: a flagged
 * product's page, and the /products header. Static text only, so a cached page never shows a
 * stale box price.
 */

/** On a product in a mystery box with units on the shelf. */
export function MysteryBoxLink({ product }: { product: { mysteryBoxEnabled: boolean; quantity: number } }) {
  if (!product.mysteryBoxEnabled || product.quantity <= 0) return null;
  return (
    <p className="m-0 mt-2 text-sm" data-mystery-link="">
      {'This item can come in a mystery box. '}
      <a href="/mystery" className="font-semibold text-sea-dark">
        See the boxes and their exact odds
      </a>
    </p>
  );
}

/** Beside the /products heading. */
export function MysteryBoxesHeaderLink() {
  return (
    <a href="/mystery" className="text-sm font-semibold text-sea-dark" data-mystery-link="">
      Mystery Boxes
    </a>
  );
}
