import { Hono } from 'hono';
import { fixMessage, PersonalForm } from './profile-personal.tsx';
import { hasConfirmedEmail, pendingEmailOf } from '../../domain/accounts/email-change.ts';
import { safeNextPath } from '../../shared/safe-next-path.ts';
import { backLinkText, type DetourFrom, detourFromOf, detourHref, detourPlace } from '../../shared/detour.ts';
import { carryOutCartIntent } from '../../http/cart-intent.ts';
import { Island } from '../../components/Island.tsx';
import { OrderCard } from '../../components/OrderSummary.tsx';
import { DomainError } from '../../domain/errors.ts';
import { userOrders, type OrderView } from '../../domain/orders/order-views.ts';
import { auctionRetriesFor } from '../../domain/auctions/retry.ts';
import { findProfile, missingProfileFields, profileTabFor, profileView, updateProfile, type ProfileView } from '../../domain/accounts/profile.ts';
import { cardConfig } from '../../domain/payments/card-config.ts';
import type { AppContext, AppEnv } from '../../http/context.ts';
import { clientIp } from '../../http/client-address.ts';
import { setFlash } from '../../http/flash.ts';
import { renderPage } from '../../http/render.tsx';
import { endSession } from '../../http/session-cookie.ts';
import { signOutEverywhere } from '../../domain/accounts/account-recovery.ts';
import { fieldErrorsOf } from '../../shared/schemas/field-errors.ts';
import { profilePatchBody } from '../../shared/schemas/profile.ts';
import { PlayTab, playSettingsOf, profilePlayForms } from './profile-play.tsx';
import { freeEntriesOf } from './free-entries.tsx';
import { AccountSettings } from './account.tsx';
import { requireUserPage, type SignedInEnv } from '../../http/guards.ts';
import { userBids } from '../../domain/auctions/lists.ts';
import { BidsTab } from './profile-bids.tsx';

type Tab = 'personal' | 'payment' | 'orders' | 'bids' | 'play' | 'account';
const tabs: { key: Tab; label: string }[] = [
  { key: 'personal', label: 'Personal' },
  { key: 'payment', label: 'Payment' },
  { key: 'orders', label: 'Orders' },
  { key: 'bids', label: 'Bids' },
  { key: 'play', label: 'Play' },
  { key: 'account', label: 'Account' },
];

/** From the tab shown, a link to the other tab that has something missing. */
function MissingElsewhere({ missing, tab }: { missing: string[]; tab: Tab }) {
  const card = missing.includes('payment card');
  const details = missing.some((field) => field !== 'payment card');
  const link = 'font-semibold text-sea-dark';
  if (tab !== 'payment' && card && !details)
    return (
      <a href="/profile?tab=payment" className={link}>
        Add your card
      </a>
    );
  if (tab !== 'personal' && details)
    return (
      <a href="/profile?tab=personal" className={link}>
        Fill in your details
      </a>
    );
  return null;
}

function Completeness({ missing, tab }: { missing: string[]; tab: Tab }) {
  const total = 9;
  const done = total - missing.length;
  const complete = missing.length === 0;
  return (
    <section
      aria-labelledby="completeness"
      className={`rounded-2xl border p-4 ${complete ? 'border-emerald-200 bg-emerald-50' : 'border-amber-200 bg-amber-50'}`}
    >
      <h2 id="completeness" className="m-0 text-base font-bold">
        {complete ? 'Profile complete' : 'Profile incomplete'}
      </h2>
      <p className="m-0 mt-1 text-sm text-slate-700">
        {complete ? 'You are ready to play and purchase.' : `Your profile must be completed to play or purchase. Still needed: ${missing.join(', ')}. `}
        <MissingElsewhere missing={missing} tab={tab} />
      </p>
      <div
        className="mt-3 h-2 rounded-full bg-white"
        role="progressbar"
        aria-label="Profile completeness"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
      >
        <div className={`h-2 rounded-full ${complete ? 'bg-emerald-600' : 'bg-amber-500'}`} style={{ width: `${Math.round((done / total) * 100)}%` }} />
      </div>
    </section>
  );
}

/** Where a detour from a game (next=/play/ID), an auction or a team goes back to once the profile is saved; null for none. */
function returnToOf<E extends AppEnv>(c: AppContext<E>): string | null {
  const wanted = c.req.query('next');
  const path = wanted ? safeNextPath(wanted) : '/';
  return path === '/' ? null : path;
}

/** The detour's way back, and where it came from (`from=`, named in the back link). */
function detourOf<E extends AppEnv>(c: AppContext<E>): { next: string; from: DetourFrom | null } | null {
  const next = returnToOf(c);
  return next ? { next, from: detourFromOf(c.req.query('from')) } : null;
}

/** The card form; opened from a game (next=/play/ID), it goes back there once the card is saved. */
function PaymentTab<E extends AppEnv>({
  c,
  card,
  type,
  detailsMissing,
}: {
  c: AppContext<E>;
  card: { brand: string; last4: string; expMonth: number; expYear: number } | null;
  type: string;
  /** The details are missing too: a detour from an auction or a team goes on to them before it goes back (one trip). */
  detailsMissing: boolean;
}) {
  const detour = detourOf(c);
  const onward = detour?.from && detour.from !== 'game' && detailsMissing;
  const returnTo = !detour ? null : onward ? detourHref('personal', detour.next, detour.from) : detour.next;
  return (
    <>
      {detour && (
        <p className="m-0 mb-4 rounded-xl bg-sand p-3 text-sm text-slate-700" data-detour={detour.from ?? 'game'}>
          {onward
            ? `Save a card, then your details, and you go straight back to ${detourPlace(detour.from)}. `
            : `Save a card and you go straight back to ${detour.from ? detourPlace(detour.from) : 'your game'}. `}
          <a href={detour.next} className="font-semibold text-sea-dark">
            {backLinkText(detour.from)}
          </a>
        </p>
      )}
      <Island
        name="PaymentMethodForm"
        props={{
          config: cardConfig(c.env.deps.config),
          card,
          type,
          returnTo,
          ...(detour?.from && detour.from !== 'game'
            ? { savedNote: onward ? 'Your card is ready. Now your details, and you are done.' : `Your card is ready: back to ${detourPlace(detour.from)}.` }
            : {}),
        }}
      />
    </>
  );
}

function ProfilePage<E extends AppEnv & SignedInEnv>(props: {
  c: AppContext<E>;
  tab: Tab;
  profile: ProfileView;
  missing: string[];
  orders: OrderView[];
  /** Auction orders whose declined card may still be retried (auctions/retry.ts). */
  retryOrderIds: Set<number>;
  errors: Record<string, string>;
  emailConfirmed: boolean;
}) {
  const { tab, profile, missing, orders, errors, c, emailConfirmed, retryOrderIds } = props;
  const card = profile.paymentMethod.lastFourDigits
    ? {
        brand: profile.paymentMethod.cardBrand ?? 'Card',
        last4: profile.paymentMethod.lastFourDigits,
        expMonth: profile.paymentMethod.expMonth ?? 0,
        expYear: profile.paymentMethod.expYear ?? 0,
      }
    : null;
  return (
    <div className="mx-auto grid max-w-3xl grid-cols-[minmax(0,1fr)] gap-5">
      <h1 className="m-0 text-2xl font-extrabold">My Profile</h1>
      <Completeness missing={missing} tab={tab} />
      <nav aria-label="Profile sections" className="grid grid-cols-3 gap-1 rounded-xl bg-slate-100 p-1 sm:flex">
        {tabs.map((t) => (
          <a
            key={t.key}
            href={`/profile?tab=${t.key}`}
            aria-current={tab === t.key ? 'page' : undefined}
            className={`flex-1 rounded-lg py-2 text-center text-sm font-semibold no-underline ${tab === t.key ? 'bg-white text-ink shadow-sm' : 'text-slate-600 hover:text-ink'}`}
          >
            {t.label}
          </a>
        ))}
      </nav>
      <section aria-label={tabs.find((t) => t.key === tab)!.label} className="rounded-2xl border border-slate-200 bg-white p-5 sm:p-6">
        {tab === 'personal' && (
          <>
            <PersonalForm profile={profile} errors={errors} returnTo={returnToOf(c)} from={detourFromOf(c.req.query('from'))} />
            <SignOutEverywhere />
          </>
        )}
        {tab === 'payment' && (
          <PaymentTab c={c} card={card} type={profile.paymentMethod.type} detailsMissing={missing.some((field) => field !== 'payment card')} />
        )}
        {tab === 'bids' && <BidsTab bids={userBids(c.env.deps.db, c.get('user').id, c.env.deps.clock.now())} now={c.env.deps.clock.now()} />}
        {tab === 'play' && <PlayTab settings={playSettingsOf(c)} free={freeEntriesOf(c)} />}
        {tab === 'account' && <AccountSettings email={profile.email} pendingEmail={profile.pendingEmail ?? null} confirmed={emailConfirmed} />}
        {tab === 'orders' &&
          (orders.length === 0 ? (
            <div className="py-6 text-center">
              <p className="m-0 text-slate-600">No orders yet.</p>
              <a href="/products" className="mt-3 inline-block font-semibold text-sea-dark">
                Start shopping
              </a>
            </div>
          ) : (
            <div className="grid gap-3">
              {orders.map((order) => (
                <OrderCard key={order.id} order={order} retryPayment={retryOrderIds.has(order.id)} />
              ))}
            </div>
          ))}
      </section>
    </div>
  );
}

/** Ends every session of the account: for a lost phone, a shared computer or a stolen cookie. */
function SignOutEverywhere() {
  return (
    <form method="post" action="/profile/sign-out-everywhere" className="mt-8 border-t border-slate-200 pt-5">
      <h2 className="m-0 text-base font-bold">Sessions</h2>
      <p className="mt-1 mb-3 text-sm text-slate-600">Signed in on a device you no longer have? End every session of your account, this one included.</p>
      <button type="submit" className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-bold text-ink cursor-pointer hover:bg-slate-50">
        Sign out everywhere
      </button>
    </form>
  );
}

function show<E extends AppEnv & SignedInEnv>(c: AppContext<E>, tab: Tab, failure?: { errors: Record<string, string>; typed: Partial<ProfileView> }) {
  const { db } = c.env.deps;
  const userId = c.get('user').id;
  const stored = findProfile(db, userId);
  const failed = failure !== undefined;
  const errors = failure?.errors ?? {};
  const orders = tab === 'orders' ? userOrders(db, userId, c.env.deps.clock.now()) : [];
  const retries = auctionRetriesFor(db, orders, userId, c.env.deps.clock.now());
  return renderPage(
    c,
    { title: 'My Profile', path: '/profile', noindex: true },
    <ProfilePage
      c={c}
      tab={tab}
      profile={{ ...profileView(stored), pendingEmail: pendingEmailOf(db, c.env.deps.clock, userId) ?? undefined, ...failure?.typed }}
      missing={missingProfileFields(stored)}
      orders={orders}
      retryOrderIds={new Set(retries.keys())}
      errors={errors}
      emailConfirmed={hasConfirmedEmail(db, userId)}
    />,
    failed ? { status: 400, toast: { title: 'Check your details', description: fixMessage(errors), variant: 'destructive' } } : {},
  );
}

/** My Profile (spec section 2): tabs Personal, Payment, Orders and the completeness card. */
export const profilePages = new Hono<AppEnv>()
  .get('/profile', requireUserPage, (c) => {
    const requested = c.req.query('tab');
    if (tabs.some((t) => t.key === requested)) return show(c, requested as Tab);
    // Sent here because something is missing: open the tab that has it.
    return show(c, profileTabFor(missingProfileFields(findProfile(c.env.deps.db, c.get('user').id))));
  })
  .route('/', profilePlayForms)
  .post('/profile', requireUserPage, async (c) => {
    const form = (await c.req.parseBody().catch(() => ({}))) as Record<string, unknown>;
    const text = (key: string) => (typeof form[key] === 'string' ? (form[key] as string) : '');
    const typed = {
      name: text('name'),
      email: text('email'),
      phone: text('phone'),
      address: {
        line1: text('address.line1'),
        line2: text('address.line2'),
        city: text('address.city'),
        state: text('address.state'),
        postalCode: text('address.postalCode'),
        country: text('address.country') || 'USA',
      },
      preferences: { receiveNotifications: form.receiveNotifications === 'on', newsletterSubscription: form.newsletterSubscription === 'on' },
    };
    // The same named schema as PATCH /api/user/profile; the password is never shown back.
    const currentPassword = text('currentPassword');
    const checked = profilePatchBody.safeParse(currentPassword ? { ...typed, currentPassword } : typed);
    if (!checked.success) return show(c, 'personal', { errors: fieldErrorsOf(checked.error), typed });
    let saved: ProfileView;
    try {
      saved = await updateProfile(c.env.deps, c.get('user').id, checked.data, clientIp(c));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return show(c, 'personal', { errors: error.fields ?? {}, typed });
    }
    const intent = carryOutCartIntent(c, c.get('user').id, { quietWhileIncomplete: true });
    const emailWaits = saved.pendingEmail !== undefined && saved.pendingEmail.toLowerCase() === typed.email.trim().toLowerCase();
    const unconfirmed = pendingEmailOf(c.env.deps.db, c.env.deps.clock, c.get('user').id);
    const firstEmail = !emailWaits && unconfirmed !== null && unconfirmed.toLowerCase() === saved.email.toLowerCase();
    setFlash(
      c,
      emailWaits
        ? { title: 'Confirm your new e-mail', description: `We sent a link to ${saved.pendingEmail}. Until you open it, messages go to ${saved.email}.` }
        : (intent?.toast ?? {
            title: 'Profile updated',
            description: firstEmail
              ? `Your profile has been updated successfully. Open the link we sent to ${unconfirmed} to confirm your e-mail.`
              : 'Your profile has been updated successfully.',
          }),
    );
    // Sent here from a game: back to it (its picks are kept); it says so itself if the card is still missing.
    const detour = detourOf(c);
    if (!detour || emailWaits) return c.redirect('/profile', 303);
    // A detour from an auction or a team still missing the card goes on to it, then back: one trip.
    const cardMissing = missingProfileFields(findProfile(c.env.deps.db, c.get('user').id)).includes('payment card');
    const onward = detour.from !== null && detour.from !== 'game' && cardMissing;
    return c.redirect(onward ? detourHref('payment', detour.next, detour.from) : detour.next, 303);
  })
  .post('/profile/sign-out-everywhere', requireUserPage, (c) => {
    signOutEverywhere(c.env.deps.db, c.env.deps.clock, c.get('user').id);
    endSession(c);
    setFlash(c, { title: 'Signed out everywhere', description: 'Every session of your account has ended. Log in again to continue.' });
    return c.redirect('/auth', 303);
  });
