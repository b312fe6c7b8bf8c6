import { Island } from '../../components/Island.tsx';
import { backLinkText, type DetourFrom, detourPlace } from '../../shared/detour.ts';
import type { ProfileView } from '../../domain/accounts/profile.ts';
import { StateSelect } from '../../shared/ui/StateSelect.tsx';
import { TextField } from '../../shared/ui/TextField.tsx';

/* The Personal tab's form (a server form that posts without JavaScript) and what a refused save says. */

function Input({
  name,
  value,
  errors,
  type = 'text',
  ...input
}: {
  name: string;
  label: string;
  value: string;
  errors: Record<string, string>;
  type?: string;
  autoComplete?: string;
}) {
  return <TextField id={`profile-${name.replace('.', '-')}`} name={name} type={type} defaultValue={value} error={errors[name]} {...input} />;
}

export function PersonalForm({
  profile,
  errors,
  returnTo,
  from = null,
}: {
  profile: ProfileView;
  errors: Record<string, string>;
  returnTo: string | null;
  /** Where the detour came from: named in the back link. */
  from?: DetourFrom | null;
}) {
  return (
    <form
      method="post"
      action={returnTo ? `/profile?next=${encodeURIComponent(returnTo)}${from ? `&from=${from}` : ''}` : '/profile'}
      noValidate
      className="grid gap-4"
    >
      {returnTo && (
        <p className="m-0 rounded-xl bg-sand p-3 text-sm text-slate-700" data-detour={from ?? 'game'}>
          {`Save your details and you go straight back to ${from ? detourPlace(from) : 'your game'}. `}
          <a href={returnTo} className="font-semibold text-sea-dark">
            {backLinkText(from)}
          </a>
        </p>
      )}
      <Input name="name" label="Full name" value={profile.name} errors={errors} autoComplete="name" />
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <Input name="email" label="Email" value={profile.email} errors={errors} type="email" autoComplete="email" />
          {profile.pendingEmail && (
            <p className="m-0 mt-1 text-sm text-slate-600">{`Waiting for confirmation: ${profile.pendingEmail}. Open the link we sent there.`}</p>
          )}
        </div>
        <Input name="phone" label="Phone" value={profile.phone} errors={errors} type="tel" autoComplete="tel" />
      </div>
      {profile.email && (
        <div>
          <TextField
            id="profile-currentPassword"
            name="currentPassword"
            type="password"
            label="Current password (only to change your e-mail)"
            autoComplete="current-password"
            error={errors.currentPassword}
          />
        </div>
      )}
      <Input name="address.line1" label="Street address" value={profile.address.line1} errors={errors} autoComplete="address-line1" />
      <Input
        name="address.line2"
        label="Apartment, suite or unit (optional)"
        value={profile.address.line2 ?? ''}
        errors={errors}
        autoComplete="address-line2"
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Input name="address.city" label="City" value={profile.address.city} errors={errors} autoComplete="address-level2" />
        <StateSelect id="profile-address-state" name="address.state" value={profile.address.state} error={errors['address.state']} />
        <Input name="address.postalCode" label="ZIP code" value={profile.address.postalCode} errors={errors} autoComplete="postal-code" />
        <Input name="address.country" label="Country" value={profile.address.country || 'USA'} errors={errors} autoComplete="country-name" />
      </div>
      <fieldset className="m-0 grid gap-2 rounded-xl border border-slate-200 p-4">
        <legend className="px-1 text-sm font-medium">Preferences</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="receiveNotifications" defaultChecked={profile.preferences.receiveNotifications} className="h-4 w-4" />
          Tell me about my games and orders by e-mail
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="newsletterSubscription" defaultChecked={profile.preferences.newsletterSubscription} className="h-4 w-4" />
          Send me the newsletter
        </label>
      </fieldset>
      <div>
        <Island name="SubmitButton" mode="idle" props={{ label: 'Save Profile', busyLabel: 'Saving...' }} />
      </div>
    </form>
  );
}

const fieldLabels: Record<string, string> = {
  name: 'Full name',
  email: 'Email',
  phone: 'Phone',
  currentPassword: 'Current password',
  'address.line1': 'Street address',
  'address.line2': 'Apartment',
  'address.city': 'City',
  'address.state': 'State',
  'address.postalCode': 'ZIP code',
  'address.country': 'Country',
};

/** The toast of a refused save names the fields to fix; the rule is under each field. */
export function fixMessage(errors: Record<string, string>): string {
  const named = Object.keys(errors).map((key) => fieldLabels[key] ?? key);
  if (named.length === 0) return 'Your profile was not saved. Please check your details.';
  const first = Object.values(errors)[0];
  return named.length === 1 ? `${named[0]}: ${first}.` : `Please fix ${named.length} fields: ${named.join(', ')}.`;
}
