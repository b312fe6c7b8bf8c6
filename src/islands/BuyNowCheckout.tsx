import { useId, useRef, useState, type FormEvent } from 'react';
import { formatCents, totalsFor } from '../shared/pricing.ts';
import { fieldErrorsOf } from '../shared/schemas/field-errors.ts';
import { customerInfoSchema, donorInfoSchema, LOCAL_ZIP, localDeliveryMessage } from '../shared/schemas/profile.ts';
import { applePayToken, useApplePayAvailable, type CardConfig } from './lib/card.tsx';
import { CardChoice, PayButton, toldUnconfirmed, useCardChoice } from './lib/checkout-form.tsx';
import { NOTIFICATIONS_CHANGED } from './lib/events.ts';
import { ApiError, apiRequest } from './lib/http.ts';
import { MoneyAttempt } from './lib/money.ts';
import { readShipping, ShippingFields, type ShippingNames, type ShippingValues } from './lib/ShippingFields.tsx';
import { type CharityView, DonationFields } from './lib/DonationFields.tsx';
import { toast, toastAfterNavigation } from './lib/toast.ts';

export interface BuyNowCheckoutProps {
  /** `variantId`: the size chosen on the product page (`/checkout?productId=&size=M`), sent with the order. */
  product: { id: number; priceCents: number; variantId?: number };
  customer: { name: string; email: string; phone: string; line1: string; line2?: string; city: string; state: string; postalCode: string };
  config: CardConfig;
  savedCard: string | null;
  /** This shopper paid for this product a moment ago ('2 minutes'): said again next to Pay, where Back brings them. */
  boughtAgo?: { text: string; orderId: number } | null;
  /** Donation mode (`/checkout?productId=&donate=1`): bought for this charity partner, no address asked. */
  donation?: CharityView | null;
}

/** Buy-now's names for the shipping fields: those of its `customerInfo` (the address ones inside `address`). */
const NAMES = {
  fullName: 'name',
  email: 'email',
  phone: 'phone',
  street: 'line1',
  apartment: 'line2',
  city: 'city',
  state: 'state',
  zip: 'postalCode',
} as const satisfies ShippingNames;

function customerInfoOf(values: ShippingValues) {
  return {
    name: values.fullName,
    email: values.email,
    phone: values.phone,
    address: { line1: values.street, line2: values.apartment, city: values.city, state: values.state, postalCode: values.zip.trim() },
  };
}

/** Errors of the body (`address.line1`) under the field names (`line1`). */
const fieldNamesOf = (errors: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(errors).map(([key, message]) => [
      key.replace(/^address\./, ''),
      // The notice above the fields says it in full, with the cart's button: the narrow ZIP field gets the short form.
      message === localDeliveryMessage ? `Buy now delivers in ${LOCAL_ZIP} only` : message,
    ]),
  );

const SHIPS_FROM_CART = 'Your cart ships anywhere in the US: add it to your cart and choose Standard or Express shipping.';

const field = 'h-11 w-full rounded-lg border bg-white px-3 text-base';

/** Spec section 2, single-product checkout: shipping form, Apple Pay or card, 'Pay {total}'. */
export default function BuyNowCheckout({ product, customer, config, savedCard, boughtAgo = null, donation = null }: BuyNowCheckoutProps) {
  const id = useId();
  const card = useCardChoice(savedCard, config);
  const { cardRef, useSaved, cardReady } = card;
  const applePayAvailable = useApplePayAvailable(config);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  /** Why the last try did not end in an order, next to the button as well as in the toast. */
  const [failure, setFailure] = useState<string | null>(null);
  /** Bidding started on this product after the page opened: Buy Now is gone, the bid form is the way on. */
  const [bidInstead, setBidInstead] = useState<string | null>(null);
  /** One attempt per page load: its key goes with every try (lib/money.ts). */
  const [attempt] = useState(() => new MoneyAttempt());
  /** Set at once, before React re-renders the button disabled: a double click pays once. */
  const paying = useRef(false);
  const totals = totalsFor([{ priceCents: product.priceCents, quantity: 1 }], 0);
  /** The address is outside 92651: the cart, which ships anywhere, is offered instead of a dead end. */
  const [outside, setOutside] = useState(false);
  const [moving, setMoving] = useState(false);
  const shipButton = useRef<HTMLButtonElement>(null);
  /** The way on is where the eyes go: the cart offer, scrolled to and focused. */
  function offerCart() {
    setOutside(true);
    requestAnimationFrame(() => {
      shipButton.current?.scrollIntoView({ block: 'center' });
      shipButton.current?.focus();
    });
  }

  async function shipFromCart() {
    setMoving(true);
    try {
      await apiRequest('POST', '/api/cart', { productId: product.id, variantId: product.variantId });
    } catch (error) {
      // Already in the cart as many times as there is stock: the cart is still where it ships from.
      if (!(error instanceof ApiError && error.status === 409)) {
        setMoving(false);
        toast({ title: 'Could not add to cart', description: error instanceof ApiError ? error.message : 'Please try again.', variant: 'destructive' });
        return;
      }
    }
    toastAfterNavigation({ title: 'Added to cart', description: 'Choose Standard or Express shipping to your address.' });
    window.location.assign('/cart');
  }

  function customerInfo(form: HTMLFormElement) {
    if (donation) {
      const { fullName: name, email, phone } = readShipping(form, NAMES);
      const donor = donorInfoSchema.safeParse({ name, email, phone });
      setErrors(donor.success ? {} : fieldErrorsOf(donor.error));
      return donor.success ? donor.data : null;
    }
    const checked = customerInfoSchema.safeParse(customerInfoOf(readShipping(form, NAMES)));
    if (checked.success) {
      setErrors({});
      return checked.data;
    }
    const found = fieldErrorsOf(checked.error);
    setErrors(fieldNamesOf(found));
    if (found['address.postalCode'] === localDeliveryMessage) {
      offerCart();
      toast({ title: 'Local Delivery Only', description: SHIPS_FROM_CART, variant: 'destructive' });
    }
    return null;
  }

  async function pay(form: HTMLFormElement, applePay: boolean) {
    if (paying.current) return;
    // A try whose answer was lost is sent again as it was: nothing new is read or tokenized.
    const resend = attempt.unresolved;
    const info = resend ? null : customerInfo(form);
    if (!resend && !info) return;
    paying.current = true;
    setBusy(true);
    setFailure(null);
    let paymentToken: string | undefined;
    try {
      if (!resend && applePay) paymentToken = await applePayToken(config, totals.totalCents);
      else if (!resend && !useSaved) paymentToken = await cardRef.current!.tokenize();
    } catch (error) {
      paying.current = false;
      setBusy(false);
      if (applePay) toast({ title: 'Apple Pay Not Available', description: 'Apple Pay is not supported on this device or browser', variant: 'destructive' });
      else toast({ title: 'Payment Failed', description: (error as Error).message || 'An error occurred during payment processing', variant: 'destructive' });
      return;
    }
    try {
      const result = await attempt.send<{ id: number }>('POST', '/api/orders', {
        productId: product.id,
        variantId: product.variantId,
        quantity: 1,
        shipping: 0,
        tax: totals.taxCents / 100,
        subtotal: totals.subtotalCents / 100,
        total: totals.totalCents / 100,
        ...(donation ? { donate: true } : { shippingMethod: 'standard' }),
        customerInfo: info,
        paymentToken,
        ...(applePay ? { paymentMethod: 'apple_pay' } : {}),
      });
      toastAfterNavigation({ title: 'Success!', description: donation ? `Your donation to ${donation.name} has been placed` : 'Your order has been placed' });
      window.location.assign(`/order-confirmation/${result.id}`);
    } catch (error) {
      paying.current = false;
      setBusy(false);
      if (toldUnconfirmed(error, setFailure)) return;
      if (error instanceof ApiError && error.code === 'BIDDING_INSTEAD') {
        // Nothing was charged: said as what to do next, not as a failed payment.
        setBidInstead(error.message);
        toast({ title: 'Place a bid instead', description: error.message });
        return;
      }
      if (error instanceof ApiError) setErrors(fieldNamesOf(error.fields));
      if (error instanceof ApiError && Object.values(error.fields).includes(localDeliveryMessage)) offerCart();
      const message = error instanceof ApiError ? error.message || 'Failed to create order' : 'An error occurred during payment processing';
      setFailure(message);
      toast({ title: 'Payment Failed', description: message, variant: 'destructive' });
      window.dispatchEvent(new Event(NOTIFICATIONS_CHANGED));
    }
  }

  return (
    // method and action: tapped before the island loaded, or without JavaScript, nothing personal goes in the URL.
    <form
      method="post"
      action="/checkout/submit"
      noValidate
      onSubmit={(event: FormEvent<HTMLFormElement>) => {
        event.preventDefault();
        void pay(event.currentTarget, false);
      }}
      className="grid gap-6"
    >
      <input type="hidden" name="productId" value={product.id} />
      {donation ? (
        <DonationFields idPrefix={id} charity={donation} values={customer} errors={errors} />
      ) : (
        <ShippingFields
          idPrefix={id}
          names={NAMES}
          values={customer}
          errors={errors}
          notice={
            <div data-outside-area={outside ? '' : undefined} className="m-0 grid gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
              <p className={`m-0 ${outside ? 'font-bold' : ''}`} role={outside ? 'alert' : undefined}>
                {outside
                  ? `Buy now delivers within ${LOCAL_ZIP} (Laguna Beach) only. ${SHIPS_FROM_CART}`
                  : `Buy now delivers within ${LOCAL_ZIP} (Laguna Beach) only.`}
              </p>
              <button
                ref={shipButton}
                type="button"
                disabled={moving}
                onClick={() => void shipFromCart()}
                className={`justify-self-start rounded-lg px-3 py-2 text-sm font-bold cursor-pointer disabled:opacity-60 ${outside ? 'border-0 bg-ink text-white' : 'border border-amber-900/30 bg-white text-amber-900'}`}
              >
                {outside ? 'Add to cart and ship it' : 'Shipping elsewhere? Add to cart instead'}
              </button>
            </div>
          }
        >
          <div>
            <label htmlFor={`${id}-method`} className="text-sm font-medium">
              Shipping method
            </label>
            <select id={`${id}-method`} className={`${field} border-slate-300`} defaultValue="standard">
              <option value="standard">Automatic Delivery - Free (within 2-3 hours)</option>
            </select>
          </div>
        </ShippingFields>
      )}
      <section aria-labelledby={`${id}-payment`} className="grid gap-3">
        <h2 id={`${id}-payment`} className="m-0 text-lg font-bold">
          Payment
        </h2>
        {applePayAvailable && (
          <>
            <button
              type="button"
              disabled={busy}
              onClick={(event) => void pay(event.currentTarget.form!, true)}
              className="h-12 rounded-xl bg-black font-bold text-white cursor-pointer disabled:opacity-60"
            >
              Pay with Apple Pay
            </button>
            <p className="m-0 text-center text-sm text-slate-600">or pay with card</p>
          </>
        )}
        <CardChoice choice={card} loadErrorTitle={config.applicationId ? 'Payment System Error' : 'Payment Setup Error'} />
        <p className="m-0 text-xs text-slate-600">Your payment information is secure and encrypted</p>
      </section>
      {boughtAgo && (
        <p data-bought-again="" className="m-0 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          {`You bought this ${boughtAgo.text} ago (`}
          <a href={`/orders/${boughtAgo.orderId}`} className="font-semibold text-amber-900">
            {`order #${boughtAgo.orderId}`}
          </a>
          {'). Pay again only if you want another one.'}
        </p>
      )}
      {bidInstead && (
        <div role="alert" data-bid-instead="" className="grid gap-2 rounded-lg border border-sea/40 bg-sea/5 p-3 text-sm">
          <p className="m-0 font-bold">{bidInstead}</p>
          <p className="m-0">Nothing was charged.</p>
          <a href={`/product/${product.id}#bid`} className="justify-self-start rounded-lg bg-ink px-4 py-2 font-bold text-white no-underline">
            Go to the auction and bid
          </a>
        </div>
      )}
      <PayButton label={`Pay ${formatCents(totals.totalCents)}`} busy={busy} disabled={busy || (!useSaved && !cardReady)} failure={failure} />
    </form>
  );
}
