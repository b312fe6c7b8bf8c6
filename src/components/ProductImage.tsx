import { defaultImageFor, productLabel, type ProductView } from '../domain/catalog/catalog.ts';
import { useRenderState } from './render-context.ts';

/**
 * A product's image wherever it shows. Local images carry `?fallback={type}`, so a missing
 * file is answered with the type's default image by the server; an image from another site
 * gets the small fallback script instead.
 */
export function ProductImage({
  product,
  className = '',
  eager = false,
  size = 400,
}: {
  product: Pick<ProductView, 'imageUrl' | 'productType' | 'brand' | 'model'> & { name?: string | null };
  className?: string;
  eager?: boolean;
  size?: number;
}) {
  const state = useRenderState();
  const url = product.imageUrl;
  const local = url.startsWith('/');
  const isDefault = url.startsWith('/static/images/defaults/');
  if (!local && !url.startsWith('data:')) state.needsImageFallback = true;
  const src = local && !isDefault ? `${url}${url.includes('?') ? '&' : '?'}fallback=${product.productType}` : url;
  return (
    <img
      src={src}
      alt={productLabel(product)}
      width={size}
      height={size}
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={eager ? 'high' : undefined}
      decoding="async"
      data-fallback={local ? undefined : defaultImageFor(product.productType)}
      className={className}
    />
  );
}
