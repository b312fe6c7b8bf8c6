import { useId, useRef, useState, type FormEvent } from 'react';
import {
  cartShippingCents,
  defaultShippingFor,
  formatCents,
  isLocalZip,
  LOCAL_DELIVERY,
  shippingChoicesFor,
  shippingMethods,
  totalsFor,
  type ShippingMethod,
} from '../shared/pricing.ts';
import { fieldErrorsOf } from '../shared/schemas/field-errors.ts';
import { checkoutFormSchema } from '../shared/schemas/profile.ts';
import type { CardConfig } from './lib/card.tsx';
import { CardChoice, PayButton, toldUnconfirmed, useCardChoice } from './lib/checkout-form.tsx';
import { NOTIFICATIONS_CHANGED } from './lib/events.ts';
import { ApiError } from './lib/http.ts';
import { MoneyAttempt } from './lib/money.ts';
import { readShipping, ShippingFields, type ShippingNames, type ShippingValues } from './lib/ShippingFields.tsx';
import { toast, toastAfterNavigation } from './lib/toast.ts';

export interface CartCheckoutProps {
  lines: { id: number; productId: number; quantity: number; priceCents: number; type: 'regular' | 'play' }[];
  customer: { fullName: string; email: string; phone: string; address: string; address2?: string; city: string; state: string; zipCode: string };
  config: CardConfig;
  /** 'Visa •••• 1111' when a card is on file. */
  savedCard: string | null;
}

/** The cart's names for the shipping fields: the spec's checkout form, sent as `customer` (and posted as such without JavaScript). */
const NAMES = {
  fullName: 'fullName',
  email: 'email',
  phone: 'phone',
  street: 'address',
  apartment: 'address2',
  city: 'city',
  state: 'state',
  zip: 'zipCode',
} as const satisfies ShippingNames;

function cartCustomer(values: ShippingValues): CartCheckoutProps['customer'] {
  return {
    fullName: values.fullName,
    email: values.email,
    phone: values.phone,
    address: values.street,
    address2: values.apartment,
    city: values.city,
    state: values.state,
    zipCode: values.zip,
  };
}

/** Spec section 2, cart: shipping details and method, order summary, payment tabs, Complete Purchase. */
export default function CartCheckout({ lines, customer, config, savedCard }: CartCheckoutProps) {
  const id = useId();
  const card = useCardChoice(savedCard, config);
  const { cardRef, useSaved, cardReady } = card;
  // The delivery follows the ZIP typed: free local delivery offered and chosen in 92651, the carriers elsewhere.
  const [zip, setZip] = useState(customer.zipCode);
  const [chosen, setMethod] = useState<ShippingMethod>(() => defaultShippingFor(customer.zipCode));
  const choices = shippingChoicesFor(zip);
  const method = choices.includes(chosen) ? chosen : choices[0]!;
  const [payment, setPayment] = useState<'square' | 'cod'>('square');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  /** A decline or payment error, shown next to the button as well as in the toast. */
  const [failure, setFailure] = useState<string | null>(null);
  /** One attempt per page load: its key goes with every try (lib/money.ts). */
  const [attempt] = useState(() => new MoneyAttempt());
  /** Set at once, before React re-renders the button disabled: a double click pays once. */
  const paying = useRef(false);
  const totals = totalsFor(lines, cartShippingCents(lines, method));
  const onlyPrizes = lines.every((line) => line.type === 'play');
  const hasPrize = lines.some((line) => line.type === 'play');

  function zipTyped(event: FormEvent<HTMLFormElement>) {
    const input = event.target as HTMLInputElement;
    if (input.name !== NAMES.zip) return;
    const typed = input.value;
    if (isLocalZip(typed) !== isLocalZip(zip)) setMethod(defaultShippingFor(typed));
    setZip(typed);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (paying.current) return;
    const formElement = event.currentTarget;
    // A try whose answer was lost is sent again as it was: nothing new is read or tokenized.
    const resend = attempt.unresolved;
    const checked = checkoutFormSchema.safeParse({ ...cartCustomer(readShipping(formElement, NAMES)), shippingMethod: method });
    if (!resend && !checked.success) {
      showErrors(formElement, fieldErrorsOf(checked.error));
      return;
    }
    paying.current = true;
    setFailure(null);
    setErrors({});
    setBusy(true);
    let paymentToken: string | undefined;
    if (!resend && payment === 'square' && !useSaved) {
      try {
        paymentToken = await cardRef.current!.tokenize();
      } catch (error) {
        toast({ title: 'Payment Error', description: (error as Error).message || 'Failed to process your card. Please try again.', variant: 'destructive' });
        paying.current = false;
        setBusy(false);
        return;
      }
    }
    try {
      const customer = checked.data ?? cartCustomer(readShipping(formElement, NAMES));
      const { fullName, email, phone, address, address2, city, state, zipCode } = customer;
      const result = await attempt.send<{ orderId: number }>('POST', '/api/checkout', {
        paymentMethod: payment,
        paymentToken,
        items: lines.map((line) => ({ id: line.id, productId: line.productId, quantity: line.quantity, price: line.priceCents / 100, type: line.type })),
        shipping: { method, cost: totals.shippingCents / 100 },
        summary: { subtotal: totals.subtotalCents / 100, shipping: totals.shippingCents / 100, tax: totals.taxCents / 100, total: totals.totalCents / 100 },
        customer: { fullName, email, phone, address, address2, city, state, zipCode },
      });
      toastAfterNavigation({ title: 'Order placed', description: 'Thank you! Your order has been placed.' });
      window.location.assign(`/order-confirmation/${result.orderId}`);
    } catch (error) {
      paying.current = false;
      setBusy(false);
      if (toldUnconfirmed(error, setFailure)) return;
      if (error instanceof ApiError && error.status === 409) {
        toastAfterNavigation({ title: 'Checkout failed', description: error.message, variant: 'destructive' });
        window.location.reload();
        return;
      }
      if (error instanceof ApiError && error.message === 'Your cart is empty.') {
        toast({ title: 'Empty Cart', description: 'Add something to your cart first.', variant: 'destructive' });
        return;
      }
      const message = error instanceof ApiError ? error.message : 'There was an error processing your payment. Please try again.';
      if (error instanceof ApiError && Object.keys(error.fields).length) showErrors(formElement, error.fields);
      setFailure(message);
      toast({ title: 'Checkout failed', description: message, variant: 'destructive' });
      // The server wrote a 'Payment Failed' notification: let the bell show it now.
      window.dispatchEvent(new Event(NOTIFICATIONS_CHANGED));
    }
  }

  /** Shows the errors, announces a summary, and moves focus to the first invalid field. */
  function showErrors(form: HTMLFormElement, found: Record<string, string>) {
    setErrors(found);
    requestAnimationFrame(() => {
      const first = form.querySelector<HTMLElement>('[aria-invalid="true"]');
      first?.focus();
      first?.scrollIntoView({ block: 'center' });
    });
  }

  return (
    // method and action: before the island has loaded, or without JavaScript, the form posts to the server; nothing goes in the URL.
    <form method="post" action="/cart/checkout" noValidate onSubmit={submit} onChange={zipTyped} className="grid gap-6">
      {Object.keys(errors).length > 0 && (
        <div role="alert" className="rounded-xl border border-red-300 bg-red-50 p-4 text-sm text-red-800">
          <p className="m-0 font-bold">{`Please fix ${Object.keys(errors).length === 1 ? 'this field' : `these ${Object.keys(errors).length} fields`}:`}</p>
          <ul className="m-0 mt-1 pl-5">
            {Object.entries(errors).map(([field, message]) => (
              <li key={field}>
                <a href={`#${id}-${field}`} className="text-red-800">
                  {message}
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}
      <ShippingFields idPrefix={id} names={NAMES} values={customer} errors={errors} />
      <fieldset className="m-0 grid gap-2 border-0 p-0">
        <legend className="mb-2 text-lg font-bold">Shipping method</legend>
        {hasPrize && (
          <p className="m-0 mb-1 rounded-xl border border-sea/30 bg-sea/5 p-3 text-sm">
            <span className="block font-semibold">{LOCAL_DELIVERY.label}</span>
            {`Prizes are delivered by the store within 2-3 hours, free, in ${LOCAL_DELIVERY.zip} (Laguna Beach) only.`}
          </p>
        )}
        {!onlyPrizes &&
          choices.map((key) => (
            <label key={key} className={`flex items-center gap-3 rounded-xl border p-3 ${method === key ? 'border-ink bg-slate-50' : 'border-slate-200'}`}>
              <input type="radio" name="shippingMethod" value={key} checked={method === key} onChange={() => setMethod(key)} />
              <span className="flex-1">
                <span className="block font-semibold">{shippingMethods[key].label}</span>
                <span className="block text-sm text-slate-600">{shippingMethods[key].detail}</span>
              </span>
              <span className="font-semibold">{shippingMethods[key].cents === 0 ? 'Free' : formatCents(shippingMethods[key].cents)}</span>
            </label>
          ))}
      </fieldset>
      <section aria-labelledby={`${id}-summary`} className="rounded-xl bg-slate-50 p-4">
        <h2 id={`${id}-summary`} className="m-0 mb-3 text-lg font-bold">
          Order summary
        </h2>
        <dl className="m-0 grid grid-cols-[1fr_auto] gap-y-1 text-sm">
          <dt>Subtotal</dt>
          <dd className="m-0 text-right">{formatCents(totals.subtotalCents)}</dd>
          <dt>Shipping</dt>
          <dd className="m-0 text-right">{formatCents(totals.shippingCents)}</dd>
          <dt>Tax (8%)</dt>
          <dd className="m-0 text-right">{formatCents(totals.taxCents)}</dd>
          <dt className="mt-2 border-t border-slate-200 pt-2 text-base font-bold">Total</dt>
          <dd className="m-0 mt-2 border-t border-slate-200 pt-2 text-right text-base font-bold" data-total="">
            {formatCents(totals.totalCents)}
          </dd>
        </dl>
      </section>
      <section aria-labelledby={`${id}-payment`} className="grid gap-3">
        <h2 id={`${id}-payment`} className="m-0 text-lg font-bold">
          Payment
        </h2>
        <noscript>
          <label className="flex items-center gap-2 rounded-xl border border-slate-200 p-3 text-sm">
            <input type="checkbox" name="paymentMethod" value="cod" />
            Pay cash on delivery (card payment needs JavaScript)
          </label>
        </noscript>
        <div role="tablist" aria-label="Payment method" className="grid grid-cols-2 gap-1 rounded-xl bg-slate-100 p-1">
          {(['square', 'cod'] as const).map((key) => (
            <button
              key={key}
              type="button"
              role="tab"
              aria-selected={payment === key}
              onClick={() => setPayment(key)}
              className={`rounded-lg py-2 text-sm font-semibold cursor-pointer border-0 ${payment === key ? 'bg-white text-ink shadow-sm' : 'bg-transparent text-slate-600'}`}
            >
              {key === 'square' ? 'Square' : 'Cash on Delivery'}
            </button>
          ))}
        </div>
        <div role="tabpanel" className="rounded-xl border border-slate-200 p-4">
          {payment === 'cod' ? (
            <p className="m-0 text-sm text-slate-700">Pay in cash when your order is delivered.</p>
          ) : (
            <div className="grid gap-3">
              <CardChoice choice={card} loadErrorTitle="Payment Error" />
            </div>
          )}
        </div>
      </section>
      <PayButton label="Complete Purchase" busy={busy} disabled={busy || (payment === 'square' && !useSaved && !cardReady)} failure={failure} />
      <p className="m-0 text-center text-xs text-slate-600">30-day money-back guarantee.</p>
    </form>
  );
}
