import type { ReactNode } from 'react';
import { BackIcon } from '../../../shared/ui/icons.tsx';
import { Island } from '../../../components/Island.tsx';
import { ProductImage } from '../../../components/ProductImage.tsx';
import { parseDescription, productTypeLabels, productTypes, type ProductType, type ProductView } from '../../../domain/catalog/catalog.ts';
import { PRODUCT_FLAGS, type ProductFlag } from '../../../shared/schemas/product.ts';
import { formRoute, newProductHref } from './panel.tsx';
import type { Variant } from '../../../domain/inventory/variants.ts';
import { editsSizes, SizesFieldset, sizeValues } from './product-sizes.tsx';

export type FormValues = Record<string, string | boolean>;

const flagLabels: Record<ProductFlag, string> = {
  buyNowEnabled: 'Buy now (Pay)',
  playEnabled: 'Play: $1 social game',
  bidEnabled: 'Bid (auction)',
  halfPriceEnabled: 'Half price',
  mysteryBoxEnabled: 'Mystery box',
  buyOnePlayFreeEnabled: 'Buy one, play free',
  donateEnabled: 'Donate',
};

/** One line under a tick box saying what the option does for a shopper (issue 29 item 5). */
const flagHints: Partial<Record<ProductFlag, string>> = {
  halfPriceEnabled: 'Shoppers team up with a friend: each pays half the price (plus tax) once a friend joins within 24 hours.',
  donateEnabled: "'Donate this' on the product page: a shopper buys it for the shop's charity partner, no address asked; you hand it over.",
  mysteryBoxEnabled: "Goes in its type's mystery box on /mystery while in stock; its chance is its share of the box's units.",
  buyOnePlayFreeEnabled:
    'Each unit a shopper pays for gives them one free game entry (no $1 hold), valid 30 days; withdrawn if the order is canceled or refunded.',
};

const TSHIRT_SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL'];

/** The t-shirt sizes, plus a stored size outside them (set through the API), so saving keeps it. */
function sizeChoices(current: string): string[] {
  return current && !TSHIRT_SIZES.includes(current) ? [current, ...TSHIRT_SIZES] : TSHIRT_SIZES;
}

/** The form's values for a stored product, in the form's own field names; a product edited by size carries its Sizes rows instead of one size and quantity. */
export function valuesOf(product: ProductView, variants: readonly Variant[] = []): FormValues {
  const { author, badge, text } = parseDescription(product.description);
  const flags = Object.fromEntries(PRODUCT_FLAGS.map((flag) => [flag, product[flag]]));
  const sizes = sizeValues(variants);
  const bySize = product.productType !== 'book' && editsSizes(product.productType, sizes);
  // quantitySeen: the count this form was opened with, sent back so a save moves the stock by the admin's difference only.
  const stock = bySize ? sizes : { quantity: String(product.quantity), quantitySeen: String(product.quantity) };
  const common = { sku: product.model, price: product.price.toFixed(2), ...stock, ...flags };
  return product.productType === 'book'
    ? { ...common, name: product.brand, author: author ?? '', pages: product.size, summary: text }
    : { ...common, name: product.name ?? '', brand: product.brand, ...(bySize ? {} : { size: product.size }), badge: badge ?? '', description: text };
}

/** A text field's value (flags are booleans and never shown as text). */
const textOf = (values: FormValues, name: string) => (typeof values[name] === 'string' ? (values[name] as string) : '');

export const emptyValues: FormValues = { price: '', quantity: '1', buyNowEnabled: true };

export const inputClass = (error?: string) => `mt-1.5 h-11 w-full rounded-lg border bg-white px-3 text-base ${error ? 'border-red-500' : 'border-slate-300'}`;

export function Field({
  name,
  label,
  errors,
  hint,
  children,
}: {
  name: string;
  label: string;
  errors: Record<string, string>;
  hint?: string;
  children: (props: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}) {
  const id = `field-${name}`;
  const error = errors[name];
  const describedBy = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint && (
        <p id={`${id}-hint`} className="m-0 mt-1 text-xs text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="m-0 mt-1 text-sm text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}

export function TextField({
  name,
  label,
  values,
  errors,
  hint,
  type = 'text',
  ...rest
}: {
  name: string;
  label: string;
  values: FormValues;
  errors: Record<string, string>;
  hint?: string;
  type?: string;
  step?: string;
  min?: string;
  maxLength?: number;
  inputMode?: 'decimal' | 'numeric';
}) {
  return (
    <Field name={name} label={label} errors={errors} hint={hint}>
      {(a11y) => <input {...a11y} {...rest} name={name} type={type} defaultValue={textOf(values, name)} className={inputClass(errors[name])} />}
    </Field>
  );
}

/** The auction lives on its own page (auction-page.tsx): the four type forms keep one shape. */
function AuctionLink({ product, note }: { product?: ProductView; note?: string }) {
  return (
    <section aria-labelledby="auction-link" className="rounded-xl border border-slate-200 p-4 text-sm">
      <h2 id="auction-link" className="m-0 text-sm font-medium">
        Auction
      </h2>
      {product?.bidEnabled ? (
        <p className="m-0 mt-1">
          <a href={`/admin/products/${product.id}/auction`} className="font-semibold text-sea-dark">
            Set up or manage this product's auction
          </a>
          {note && <span className="block text-slate-600">{note}</span>}
        </p>
      ) : (
        <p className="m-0 mt-1 text-slate-600">
          {product
            ? 'Tick Bid (auction) and save: then set up the auction from here.'
            : 'Create the product with Bid (auction) ticked: then set up the auction from its form.'}
        </p>
      )}
    </section>
  );
}

export interface ProductFormProps {
  type: ProductType;
  /** The product being edited; absent for a new one. */
  product?: ProductView;
  action: string;
  values: FormValues;
  errors: Record<string, string>;
  /** The product's auction in a line ('Running: $120.00, 3 bids, ends ...'), beside the link to its page. */
  auctionNote?: string;
}

/** Spec section 2, admin product forms: one per type, server-rendered, posting to its own route. */
export function ProductForm({ type, product, action, values, errors, auctionNote }: ProductFormProps) {
  const label = productTypeLabels[type].singular;
  const isBook = type === 'book';
  const bySize = !isBook && editsSizes(type, values);
  const generalError = errors._ ?? errors.productType;
  return (
    <div className="mx-auto max-w-2xl">
      <div className="mb-5 flex items-center gap-3">
        <a
          href={`/admin?tab=${type}`}
          aria-label="Back to the admin panel"
          className="inline-flex h-10 w-10 items-center justify-center rounded-full text-ink hover:bg-slate-200"
        >
          <BackIcon />
        </a>
        <h1 className="m-0 flex-1 text-2xl font-extrabold">{product ? `Edit ${label}` : `Add ${label}`}</h1>
        <a href="/" className="rounded-full border border-slate-300 bg-white px-4 py-2 text-sm font-bold text-ink no-underline hover:border-ink">
          Back to Store
        </a>
      </div>
      <form
        method="post"
        action={action}
        encType="multipart/form-data"
        noValidate
        className="flex flex-col gap-5 rounded-2xl border border-slate-200 bg-white p-5 sm:p-7"
      >
        {generalError && <p className="m-0 rounded-lg bg-red-50 p-3 text-sm text-red-700">{generalError}</p>}
        {product ? (
          <p className="m-0 text-sm text-slate-600">
            Type: <strong className="text-ink">{label}</strong> (a product's type cannot be changed)
          </p>
        ) : (
          <nav aria-label="Product type" className="flex flex-wrap gap-2">
            {productTypes.map((t) => (
              <a
                key={t}
                href={newProductHref(t)}
                aria-current={t === type ? 'page' : undefined}
                className={`rounded-full border px-3 py-1.5 text-sm font-semibold no-underline ${t === type ? 'border-ink bg-ink text-white' : 'border-slate-300 text-ink'}`}
              >
                {productTypeLabels[t].singular}
              </a>
            ))}
          </nav>
        )}
        <input type="hidden" name="productType" value={type} />
        {isBook ? (
          <>
            <TextField name="name" label="Book name" values={values} errors={errors} maxLength={200} />
            <TextField name="author" label="Author" values={values} errors={errors} maxLength={120} />
            <div className="grid gap-5 sm:grid-cols-2">
              <TextField name="sku" label="SKU" values={values} errors={errors} maxLength={64} />
              <TextField name="pages" label="Pages" values={values} errors={errors} type="number" min="1" step="1" inputMode="numeric" />
            </div>
          </>
        ) : (
          <>
            <TextField
              name="name"
              label="Product name (optional)"
              hint="The title shoppers see, such as 'Original Wayfarer'; without one, the brand and SKU are shown."
              values={values}
              errors={errors}
              maxLength={100}
            />
            <TextField name="brand" label="Brand" values={values} errors={errors} maxLength={100} />
            <div className="grid gap-5 sm:grid-cols-2">
              <TextField name="sku" label="SKU (model)" values={values} errors={errors} maxLength={64} />
              {bySize ? null : type === 'tshirt' ? (
                <Field name="size" label="Size" errors={errors}>
                  {(a11y) => (
                    <select {...a11y} name="size" defaultValue={textOf(values, 'size') || 'M'} className={inputClass(errors.size)}>
                      {sizeChoices(textOf(values, 'size')).map((size) => (
                        <option key={size} value={size}>
                          {size}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
              ) : (
                <TextField
                  name="size"
                  label={type === 'shoe' ? 'Size (US)' : 'Size'}
                  hint={type === 'sunglasses' ? 'Lens-bridge-temple, for example 54-18-145' : undefined}
                  values={values}
                  errors={errors}
                  maxLength={40}
                />
              )}
            </div>
            {type === 'sunglasses' && (
              <TextField
                name="badge"
                label="Badge (optional)"
                hint="Shown as a tag on the product card, for example Best Seller"
                values={values}
                errors={errors}
                maxLength={30}
              />
            )}
          </>
        )}
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField name="price" label="Price ($)" values={values} errors={errors} type="number" min="0.01" step="0.01" inputMode="decimal" />
          {!bySize && <TextField name="quantity" label="Quantity" values={values} errors={errors} type="number" min="0" step="1" inputMode="numeric" />}
        </div>
        {bySize && <SizesFieldset values={values} errors={errors} shoe={type === 'shoe'} />}
        <Field name={isBook ? 'summary' : 'description'} label={isBook ? 'Summary' : 'Description'} errors={errors}>
          {(a11y) => (
            <textarea
              {...a11y}
              name={isBook ? 'summary' : 'description'}
              rows={4}
              maxLength={2000}
              defaultValue={textOf(values, isBook ? 'summary' : 'description')}
              className="mt-1.5 w-full rounded-lg border border-slate-300 p-3 text-base"
            />
          )}
        </Field>
        <Field
          name="image"
          label={product ? 'Image (leave empty to keep the current one)' : 'Image'}
          errors={errors}
          hint="JPEG, PNG, WebP or GIF, at most 5 MB"
        >
          {(a11y) => (
            <div className="mt-1.5 flex items-center gap-4">
              {product && (
                <ProductImage product={product} size={80} className="h-20 w-20 shrink-0 rounded-lg border border-slate-200 bg-slate-50 object-contain" />
              )}
              <input {...a11y} name="image" type="file" accept="image/jpeg,image/png,image/webp,image/gif" className="min-w-0 flex-1 text-sm" />
            </div>
          )}
        </Field>
        {product && <input type="hidden" name="keepExistingImage" value="true" />}
        {product && !bySize && <input type="hidden" name="quantitySeen" value={textOf(values, 'quantitySeen') || String(product.quantity)} />}
        <fieldset className="m-0 rounded-xl border border-slate-200 p-4">
          <legend className="px-1 text-sm font-medium">Purchase options</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {PRODUCT_FLAGS.map((flag) => (
              <label key={flag} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  name={flag}
                  defaultChecked={values[flag] === true}
                  className="h-4 w-4"
                  aria-describedby={flagHints[flag] ? `${flag}-hint` : undefined}
                />
                <span>
                  {flagLabels[flag]}
                  {flagHints[flag] && (
                    <span id={`${flag}-hint`} className="block text-xs text-slate-600">
                      {flagHints[flag]}
                    </span>
                  )}
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <AuctionLink product={product} note={auctionNote} />
        <div className="flex justify-end">
          <Island name="SubmitButton" mode="idle" props={{ label: product ? 'Save Changes' : `Create ${label}`, busyLabel: 'Saving...' }} />
        </div>
      </form>
    </div>
  );
}

export { formRoute };
