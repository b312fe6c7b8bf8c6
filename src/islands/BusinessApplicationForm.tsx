import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { fieldErrorsOf } from '../shared/schemas/field-errors.ts';
import {
  BUSINESS_CITY,
  BUSINESS_LIMITS,
  BUSINESS_REPLY_TIME,
  businessApplicationSchema,
  businessFormValues,
  businessTypeLabels,
  businessTypes,
  emptyBusinessForm,
  type BusinessFormValues,
  SUBMIT_FAILED_FALLBACK,
  SUBMIT_FAILED_TITLE,
  submittedToast,
} from '../shared/schemas/business.ts';
import { ApiError, apiRequest } from './lib/http.ts';
import { toast } from './lib/toast.ts';
import { ApplicationReceived } from '../shared/ui/ApplicationReceived.tsx';
import { TickIcon } from '../shared/ui/icons.tsx';

export interface BusinessApplicationFormProps {
  /** The values typed before a refused form post (the server re-renders them). */
  values?: BusinessFormValues;
  /** Field messages from the server, by field name. */
  errors?: Record<string, string>;
}

function Pitch() {
  return (
    <section aria-labelledby="business-portal-title" className="rounded-2xl bg-ink p-6 text-white sm:p-8 lg:sticky lg:top-20">
      <p className="m-0 text-xs font-bold uppercase tracking-widest text-coral-light">Business Portal</p>
      <h1 id="business-portal-title" className="m-0 mt-2 text-3xl font-extrabold leading-tight">
        Partner with us in Laguna Beach
      </h1>
      <p className="m-0 mt-4 text-base leading-relaxed text-slate-200">
        Run a shop, restaurant, gallery, hotel or service in Laguna Beach? Team up with the Competitive Shopping Association and put your business in front of
        local shoppers who love to play and buy.
      </p>
      <ul className="m-0 mt-5 grid list-none gap-3 p-0 text-sm">
        {['Showcase your business to shoppers in town', 'Join our games, prizes and local promotions', `A personal reply ${BUSINESS_REPLY_TIME}`].map(
          (perk) => (
            <li key={perk} className="flex items-start gap-3">
              <span className="mt-0.5 flex h-5 w-5 shrink-0 items-center justify-center rounded-full bg-coral text-white" aria-hidden="true">
                <TickIcon className="h-3 w-3" strokeWidth={3} />
              </span>
              <span>{perk}</span>
            </li>
          ),
        )}
      </ul>
    </section>
  );
}

const control = (error?: string, tone = 'bg-white text-ink') =>
  `mt-1.5 w-full rounded-lg border px-3 text-base focus:outline-none focus:ring-2 focus:ring-coral ${tone} ${error ? 'border-red-500' : 'border-slate-300'}`;

function Field({ name, label, hint, error, children }: { name: string; label: string; hint?: string; error?: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={`business-${name}`} className="text-sm font-medium text-ink">
        {label}
        {hint && <span className="font-normal text-slate-500">{` ${hint}`}</span>}
      </label>
      {children}
      {error && (
        <p id={`business-${name}-error`} className="m-0 mt-1 text-sm text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * Spec section 2, business portal: the partner application. The form posts to /business-portal
 * and works without JavaScript; hydrated, it checks the shared rules first, posts to
 * /api/business-applications and shows Application Received in place.
 */
export default function BusinessApplicationForm({ values = emptyBusinessForm, errors: initialErrors = {} }: BusinessApplicationFormProps) {
  const [errors, setErrors] = useState<Record<string, string>>(initialErrors);
  const [busy, setBusy] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  function focusFirstError(fields: Record<string, string>) {
    const first = Object.keys(fields)[0];
    if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const typed = businessFormValues(Object.fromEntries(new FormData(event.currentTarget)));
    const checked = businessApplicationSchema.safeParse(typed);
    if (!checked.success) {
      const fields = fieldErrorsOf(checked.error);
      setErrors(fields);
      focusFirstError(fields);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await apiRequest('POST', '/api/business-applications', { ...typed, city: BUSINESS_CITY });
      toast(submittedToast);
      setSubmitted(true);
      history.replaceState(null, '', '/business-portal?submitted=1');
      window.scrollTo(0, 0);
    } catch (error) {
      setBusy(false);
      if (error instanceof ApiError) {
        setErrors(error.fields);
        focusFirstError(error.fields);
      }
      toast({ title: SUBMIT_FAILED_TITLE, description: error instanceof ApiError ? error.message : SUBMIT_FAILED_FALLBACK, variant: 'destructive' });
    }
  }

  if (submitted) return <ApplicationReceived focus />;

  const invalid = (name: string) => (errors[name] ? { 'aria-invalid': true as const, 'aria-describedby': `business-${name}-error` } : {});
  const text = (name: keyof Omit<BusinessFormValues, 'termsAgreed'>, label: string, props: React.InputHTMLAttributes<HTMLInputElement> = {}, hint?: string) => (
    <Field name={name} label={label} hint={hint} error={errors[name]}>
      <input
        id={`business-${name}`}
        name={name}
        type="text"
        defaultValue={values[name]}
        className={`${control(errors[name])} h-11`}
        {...invalid(name)}
        {...props}
      />
    </Field>
  );

  return (
    <div className="mx-auto grid max-w-5xl gap-6 lg:grid-cols-[2fr_3fr] lg:items-start">
      <Pitch />
      <section aria-labelledby="business-form-title" className="rounded-2xl border border-slate-200 bg-white p-5 sm:p-7">
        <h2 id="business-form-title" className="m-0 text-xl font-bold text-ink">
          Partner application
        </h2>
        <p className="m-0 mt-1 text-sm text-slate-600">All fields are required unless marked optional.</p>
        <form ref={formRef} method="post" action="/business-portal" noValidate onSubmit={onSubmit} className="mt-5 grid gap-4">
          {text('businessName', 'Business name', { autoComplete: 'organization', maxLength: BUSINESS_LIMITS.businessName })}
          {text('contactName', 'Contact name', { autoComplete: 'name', maxLength: BUSINESS_LIMITS.contactName })}
          <div className="grid gap-4 sm:grid-cols-2">
            {text('email', 'Email', { type: 'email', autoComplete: 'email', maxLength: 200 })}
            {text('phone', 'Phone', { type: 'tel', autoComplete: 'tel', maxLength: 30 })}
          </div>
          {text('address', 'Street address', { autoComplete: 'street-address', maxLength: BUSINESS_LIMITS.address })}
          <div className="grid grid-cols-2 gap-4">
            <Field name="city" label="City">
              <input
                id="business-city"
                name="city"
                type="text"
                value={BUSINESS_CITY}
                readOnly
                aria-describedby="business-city-hint"
                className={`${control(undefined, 'bg-slate-100 text-slate-600')} h-11 cursor-not-allowed`}
              />
              <p id="business-city-hint" className="sr-only">
                The partner program is for Laguna Beach businesses.
              </p>
            </Field>
            {text('zipCode', 'ZIP code', { autoComplete: 'postal-code', inputMode: 'numeric', maxLength: 10 })}
          </div>
          <Field name="businessType" label="Business type" error={errors.businessType}>
            <select
              id="business-businessType"
              name="businessType"
              defaultValue={values.businessType}
              className={`${control(errors.businessType)} h-11`}
              {...invalid('businessType')}
            >
              <option value="">Select a business type</option>
              {businessTypes.map((type) => (
                <option key={type} value={type}>
                  {businessTypeLabels[type]}
                </option>
              ))}
            </select>
          </Field>
          <Field name="description" label="About your business" error={errors.description}>
            <textarea
              id="business-description"
              name="description"
              rows={4}
              maxLength={BUSINESS_LIMITS.description}
              defaultValue={values.description}
              placeholder="What you offer and how you'd like to partner with us"
              className={`${control(errors.description)} block py-2.5 leading-normal`}
              {...invalid('description')}
            />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            {text(
              'website',
              'Website',
              { type: 'url', inputMode: 'url', autoComplete: 'url', placeholder: 'https://', maxLength: BUSINESS_LIMITS.website },
              '(optional)',
            )}
            {text(
              'instagramHandle',
              'Instagram handle',
              { placeholder: '@yourbusiness', autoCapitalize: 'none', maxLength: BUSINESS_LIMITS.instagramHandle },
              '(optional)',
            )}
          </div>
          <div>
            <label className="flex items-start gap-3 text-sm text-ink">
              <input
                id="business-termsAgreed"
                type="checkbox"
                name="termsAgreed"
                defaultChecked={values.termsAgreed}
                className="mt-0.5 h-5 w-5 shrink-0 accent-coral-dark"
                {...invalid('termsAgreed')}
              />
              <span>
                {'I agree to the '}
                <a href="/terms" target="_blank" rel="noopener" className="font-semibold text-sea-dark">
                  terms and conditions
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
              </span>
            </label>
            {errors.termsAgreed && (
              <p id="business-termsAgreed-error" className="m-0 mt-1 text-sm text-red-600">
                {errors.termsAgreed}
              </p>
            )}
          </div>
          <button
            type="submit"
            disabled={busy}
            className="mt-1 h-12 rounded-xl bg-coral-dark text-base font-bold text-white cursor-pointer hover:bg-coral disabled:opacity-60 disabled:cursor-wait"
          >
            {busy ? 'Submitting...' : 'Submit Application'}
          </button>
        </form>
      </section>
    </div>
  );
}
