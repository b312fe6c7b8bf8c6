import { TextField } from '../../shared/ui/TextField.tsx';

/** The charity partner a donation goes to, as the checkout shows it. */
export interface CharityView {
  name: string;
  address: string;
  about: string;
}

/**
 * The single-product checkout in donation mode (issue 29): instead of the shipping form, where
 * the product goes (the charity partner, its address and a line about it) and only what the
 * receipt needs of the buyer: name, e-mail and phone. The 92651 rule is not asked: the shop
 * hands the product over to its local partner. Field names are buy-now's `customerInfo` ones.
 */
export function DonationFields({
  idPrefix,
  charity,
  values,
  errors,
}: {
  idPrefix: string;
  charity: CharityView;
  values: { name: string; email: string; phone: string };
  errors: Readonly<Record<string, string>>;
}) {
  const field = (name: 'name' | 'email' | 'phone', label: string, props: { type?: string; autoComplete: string }) => (
    <TextField id={`${idPrefix}-${name}`} name={name} label={label} defaultValue={values[name]} error={errors[name]} {...props} />
  );
  return (
    <section aria-labelledby={`${idPrefix}-donation`} className="grid gap-3" data-donation-mode="">
      <h2 id={`${idPrefix}-donation`} className="m-0 text-lg font-bold">
        {`Donation to ${charity.name}`}
      </h2>
      <div className="m-0 grid gap-1 rounded-lg bg-sea/5 p-3 text-sm text-slate-800" data-charity="">
        <p className="m-0 font-bold">{charity.name}</p>
        <p className="m-0">{charity.address}</p>
        {charity.about && <p className="m-0 text-slate-700">{charity.about}</p>}
        <p className="m-0 mt-1">{`No shipping address needed: we hand this product over to ${charity.name}, our charity partner in Laguna Beach.`}</p>
      </div>
      <h3 className="m-0 text-base font-bold">Your details, for the receipt</h3>
      {field('name', 'Full name', { autoComplete: 'name' })}
      <div className="grid gap-3 sm:grid-cols-2">
        {field('email', 'Email', { type: 'email', autoComplete: 'email' })}
        {field('phone', 'Phone', { type: 'tel', autoComplete: 'tel' })}
      </div>
    </section>
  );
}
