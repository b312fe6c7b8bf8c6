import type { InputHTMLAttributes, ReactNode } from 'react';
import { StateSelect } from '../../shared/ui/StateSelect.tsx';
import { TextField } from '../../shared/ui/TextField.tsx';

/*
 * The shipping details both checkouts ask for (the cart and the single-product checkout): one
 * place for the labels, their order and layout, the autocomplete hints, input modes and the
 * error wiring. The two API bodies name the fields differently (the cart posts fullName,
 * address, zipCode; buy-now posts name and an address with line1, postalCode), so each island
 * passes its own names: they become the inputs' `name` and id suffix, and the keys its
 * initial values and errors use. `readShipping` gives the typed values back under the shared
 * keys, for each island's own adapter to its body.
 */

/** The fields, in the order the shopper sees them. */
export type ShippingKey = 'fullName' | 'email' | 'phone' | 'street' | 'apartment' | 'city' | 'state' | 'zip';

/** What the shopper typed, under the shared keys. */
export type ShippingValues = Record<ShippingKey, string>;

/** An island's own name for each field: the form field `name`, the id suffix, the key of its values and errors. */
export type ShippingNames<N extends string = string> = Record<ShippingKey, N>;

type FieldSpec = { label: string } & Pick<InputHTMLAttributes<HTMLInputElement>, 'type' | 'autoComplete' | 'inputMode'>;

const FIELDS: Record<ShippingKey, FieldSpec> = {
  fullName: { label: 'Full name', autoComplete: 'name' },
  email: { label: 'Email', type: 'email', autoComplete: 'email' },
  phone: { label: 'Phone', type: 'tel', autoComplete: 'tel' },
  street: { label: 'Street address', autoComplete: 'address-line1' },
  apartment: { label: 'Apartment, suite or unit (optional)', autoComplete: 'address-line2' },
  city: { label: 'City', autoComplete: 'address-level2' },
  state: { label: 'State', autoComplete: 'address-level1' },
  zip: { label: 'ZIP code', autoComplete: 'postal-code', inputMode: 'numeric' },
};

const KEYS = Object.keys(FIELDS) as ShippingKey[];

/**
 * The 'Shipping details' section: heading, an optional notice above the fields, the fields, and
 * anything the island adds below them (`children`). The inputs are uncontrolled: the island reads
 * them from the form on submit, so what a shopper typed before the island loaded is kept and the
 * same form still posts without JavaScript.
 */
export function ShippingFields<N extends string>({
  idPrefix,
  names,
  values,
  errors,
  notice,
  children,
}: {
  /** The island's `useId()`: ids are `${idPrefix}-${name}` and the heading is `${idPrefix}-shipping`. */
  idPrefix: string;
  names: ShippingNames<N>;
  /** Initial values (the saved profile), keyed by the island's names. */
  values: Partial<Record<N, string>>;
  /** The message per field, keyed by the island's names; other keys are ignored. */
  errors: Readonly<Record<string, string>>;
  notice?: ReactNode;
  children?: ReactNode;
}) {
  const field = (key: ShippingKey) => {
    const name = names[key];
    const { label, ...props } = FIELDS[key];
    return <TextField id={`${idPrefix}-${name}`} name={name} label={label} defaultValue={values[name]} error={errors[name]} {...props} />;
  };
  return (
    <section aria-labelledby={`${idPrefix}-shipping`} className="grid gap-3">
      <h2 id={`${idPrefix}-shipping`} className="m-0 text-lg font-bold">
        Shipping details
      </h2>
      {notice}
      {field('fullName')}
      <div className="grid gap-3 sm:grid-cols-2">
        {field('email')}
        {field('phone')}
      </div>
      {field('street')}
      {field('apartment')}
      {field('city')}
      {/* State names run long ('North Carolina'): the two share a row, the city has its own. */}
      <div className="grid grid-cols-2 gap-3">
        <StateSelect id={`${idPrefix}-${names.state}`} name={names.state} value={values[names.state] ?? ''} error={errors[names.state]} />
        {field('zip')}
      </div>
      {children}
    </section>
  );
}

/** The shipping fields of `form` as typed (untrimmed; the schemas trim), read by the island's names. */
export function readShipping(form: HTMLFormElement, names: ShippingNames): ShippingValues {
  const data = new FormData(form);
  const values = {} as ShippingValues;
  for (const key of KEYS) {
    const value = data.get(names[key]);
    values[key] = typeof value === 'string' ? value : '';
  }
  return values;
}
