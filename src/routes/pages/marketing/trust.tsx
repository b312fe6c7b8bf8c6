import type { ReactNode } from 'react';
import { ENTRY_FEE_CENTS } from '../../../domain/games/entry.ts';
import { PRIZE_KEEP_MS } from '../../../domain/games/schedule.ts';
import { formatCents, LOCAL_DELIVERY, shippingMethods, TAX_RATE } from '../../../shared/pricing.ts';
import { Section } from './shared.tsx';

/*
 * The pages a shopper reads before trusting a shop with money: terms, privacy (with the
 * California rights that the Account tab serves), returns, shipping and contact. Every number
 * comes from the rule in code, so the text cannot drift from what the shop does.
 */

/** Each document and the day its wording last changed: the one place its 'Last updated' line reads (change it with the text). */
export const trustPages = [
  { path: '/terms', label: 'Terms', title: 'Terms of Sale and Use', revised: '2026-11-25' },
  { path: '/privacy', label: 'Privacy', title: 'Privacy Policy', revised: '2026-11-25' },
  { path: '/returns', label: 'Returns', title: 'Returns and the 30-Day Money-Back Guarantee', revised: '2026-11-25' },
  { path: '/shipping', label: 'Shipping', title: 'Shipping and Delivery', revised: '2026-11-25' },
  { path: '/contact', label: 'Contact', title: 'Contact Us', revised: '2026-11-25' },
] as const;
export type TrustPath = (typeof trustPages)[number]['path'];

export interface TrustInfo {
  supportEmail: string;
  /** Days a notification is kept (RETENTION_NOTIFICATIONS_DAYS). */
  notificationsDays: number;
}

const STORE_NAME = 'Competitive Shopping Association';
const STORE_PLACE = 'Laguna Beach, California 92651';
const revisedFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', dateStyle: 'long' });
const entryFee = formatCents(ENTRY_FEE_CENTS).replace('.00', '');
const taxPercent = `${Math.round(TAX_RATE * 100)}%`;
const prizeDays = PRIZE_KEEP_MS / 86_400_000;

function Mail({ to }: { to: string }) {
  return (
    <a href={`mailto:${to}`} className="font-semibold text-sea-dark break-all">
      {to}
    </a>
  );
}

function A({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} className="font-semibold text-sea-dark">
      {children}
    </a>
  );
}

function TrustArticle({ path, children }: { path: TrustPath; children: ReactNode }) {
  const { title, revised } = trustPages.find((page) => page.path === path)!;
  return (
    <article className="mx-auto max-w-3xl px-1 py-6 sm:px-4">
      <h1 className="m-0 text-2xl font-extrabold">{title}</h1>
      <p className="m-0 mt-2 text-sm text-slate-600">
        {`${STORE_NAME}, ${STORE_PLACE}. Last updated `}
        <time dateTime={revised}>{revisedFormat.format(new Date(`${revised}T00:00:00Z`))}</time>.
      </p>
      {children}
    </article>
  );
}

function TermsPage({ info }: { info: TrustInfo }) {
  return (
    <TrustArticle path="/terms">
      <Section id="terms-who" title="Who we are">
        <p className="m-0">
          {`The ${STORE_NAME} ("CSA", "we") is a local shop in ${STORE_PLACE} selling designer sunglasses, t-shirts, shoes and books. Using this site or buying from us means you accept these terms.`}
        </p>
      </Section>
      <Section id="terms-account" title="Your account">
        <p className="m-0">
          Keep your password to yourself and your profile (name, e-mail, phone, address) correct: we deliver and send receipts to what it says. You can change
          your password, download your data or delete your account at any time under <A href="/profile?tab=account">My Profile, Account</A>.
        </p>
      </Section>
      <Section id="terms-buying" title="Buying">
        <p className="m-0">
          {`Prices are in US dollars. Sales tax of ${taxPercent} is added at checkout. You pay by card (processed by our card processor; we never see or keep the full number) or, for cart orders, cash on delivery. An order is accepted when you see its confirmation; if a card is declined nothing is charged and no order is placed.`}
        </p>
        <p className="m-0">
          Delivery times and prices are on the <A href="/shipping">shipping page</A>; returns and refunds on the <A href="/returns">returns page</A>.
        </p>
      </Section>
      <Section id="terms-game" title="The $1 game">
        <p className="m-0">
          {`Playing for a product costs ${entryFee} per entry and is open to players 18 or older. The `}
          <A href="/rules">official game rules</A>
          {` say how games fill, start, are scored, verified and settled, when your ${entryFee} hold is captured or released, and how to set a daily limit or exclude yourself. A prize is kept for you ${prizeDays} days, then returns to stock.`}
        </p>
      </Section>
      <Section id="terms-use" title="Using the site">
        <p className="m-0">
          Do not try to break, overload or get around the site's limits, use someone else's account or card, or enter games on behalf of others. We may close
          accounts that do, and void their entries with the holds released.
        </p>
      </Section>
      <Section id="terms-partners" title="Business partners">
        <p className="m-0">
          Local businesses may apply through the <A href="/business-portal">business portal</A>. Applying agrees to these terms and to being contacted about the
          application; it creates no partnership until both sides agree in writing. We answer within 2-3 business days.
        </p>
      </Section>
      <Section id="terms-law" title="Liability and law">
        <p className="m-0">
          Products come with their makers' warranties. To the extent the law allows, our liability for an order is limited to what you paid for it. These terms
          are governed by the laws of California; nothing in them takes away your rights as a consumer. We may update them; the date at the top says when.
        </p>
        <p className="m-0">
          Questions: <Mail to={info.supportEmail} />.
        </p>
      </Section>
    </TrustArticle>
  );
}

function PrivacyPage({ info }: { info: TrustInfo }) {
  return (
    <TrustArticle path="/privacy">
      <Section id="privacy-collect" title="What we collect and why">
        <ul className="m-0 grid gap-1 pl-5">
          <li>Your account: username and a one-way hash of your password (never the password itself).</li>
          <li>Your profile: name, e-mail, phone and delivery address, to deliver orders and send receipts.</li>
          <li>
            Your card: stored by our card processor (Square). We keep only its brand and last four digits, to show you which card paid. Cash on delivery needs
            no card.
          </li>
          <li>Your orders, game entries and picks, notifications and e-mail preferences, to run the shop and the games.</li>
          <li>Business applications: the contact details a business sends us, to answer it.</li>
          <li>
            Server logs and rate-limit counters: the page asked for, the time and the network address, to keep the shop secure and find faults. Limit counters
            are kept about a day.
          </li>
        </ul>
      </Section>
      <Section id="privacy-cookies" title="Cookies">
        <p className="m-0">
          Two cookies, both needed for the site to work: <code>csa_session</code> keeps you signed in, and <code>csa_flash</code> carries a one-minute message
          after a form. No advertising, analytics or tracking cookies, and no third-party scripts. The game alerts remember a dismissed banner in your browser's
          local storage.
        </p>
      </Section>
      <Section id="privacy-share" title="Who sees it">
        <p className="m-0">
          Our staff, to deliver and support your orders; our card processor, to take payments; our e-mail provider, to send the messages you get. Your username
          and picks appear on the public record of a game you entered once it starts (that is how anyone can check a result). We do not sell or share your
          personal information for advertising.
        </p>
      </Section>
      <Section id="privacy-email" title="E-mail">
        <p className="m-0">
          Receipts, refunds and security messages (password reset, e-mail change) are always sent. Anything else (a win, a delivery, reminders) follows the
          e-mail preference in your profile.
        </p>
      </Section>
      <Section id="privacy-keep" title="How long we keep it">
        <p className="m-0">
          {`Your account until you delete it. Notifications ${info.notificationsDays} days. Orders are kept for our accounts and tax records even after you delete your account, with your name, e-mail, phone and address erased. Password-reset links expire after 30 minutes and are kept only as a hash. If you excluded yourself from games, the exclusion is kept until it ends, also after you delete your account, as keyed hashes of your e-mail, phone and card fingerprint (codes that cannot be turned back into them, with no link to any account), so a new account cannot get around it; then they are deleted.`}
        </p>
      </Section>
      <Section id="privacy-rights" title="Your California privacy rights">
        <p className="m-0">
          Under the California Consumer Privacy Act, as amended by the CPRA, you may know what we hold about you, get a copy, correct it, delete it, and not be
          treated differently for asking. You can do each yourself, signed in:
        </p>
        <ul className="m-0 grid gap-1 pl-5">
          <li>
            <strong>Know and copy</strong>: <A href="/profile?tab=account">Download my data</A> gives your profile, orders, plays and notifications as a file.
          </li>
          <li>
            <strong>Correct</strong>: edit your details in <A href="/profile">My Profile</A>.
          </li>
          <li>
            <strong>Delete</strong>: <A href="/profile?tab=account">Delete my account</A> ends every session and erases your personal details.
          </li>
        </ul>
        <p className="m-0">
          Or write to <Mail to={info.supportEmail} /> from the e-mail address on your account; we answer within 45 days, as the law requires. We do not sell
          personal information, so there is nothing to opt out of.
        </p>
      </Section>
    </TrustArticle>
  );
}

function ReturnsPage({ info }: { info: TrustInfo }) {
  return (
    <TrustArticle path="/returns">
      <Section id="returns-guarantee" title="30 days, your money back">
        <p className="m-0">
          Not happy with something you bought? Tell us within 30 days of delivery and we refund what you paid for it, tax included. Sunglasses, shoes and
          clothes should come back unworn, with their tags and case; books unread and undamaged.
        </p>
      </Section>
      <Section id="returns-how" title="How to return">
        <ol className="m-0 grid gap-1 pl-5">
          <li>
            Write to <Mail to={info.supportEmail} /> with your order number (it is on your receipt and under{' '}
            <A href="/profile?tab=orders">My Profile, Orders</A>).
          </li>
          <li>{`In Laguna Beach (${LOCAL_DELIVERY.zip}) we collect it from your door for free; elsewhere we send you a prepaid label.`}</li>
          <li>We refund within 5 business days of receiving it: to the card you paid with, or in cash for a cash-on-delivery order.</li>
        </ol>
      </Section>
      <Section id="returns-cancel" title="Before delivery">
        <p className="m-0">
          An order that has not been delivered yet can be canceled: write to us and we cancel it and refund the card in full, at once. You see the refund on the
          order's page and get an e-mail.
        </p>
      </Section>
      <Section id="returns-prizes" title="Prizes and game entries">
        <p className="m-0">
          {`A prize bought for ${entryFee} is covered like any purchase: we refund what you paid for it. Game entries are not products: a ${entryFee} hold is captured only when the game is played and released otherwise, as the `}
          <A href="/rules">official rules</A> explain.
        </p>
      </Section>
    </TrustArticle>
  );
}

function ShippingPage() {
  return (
    <TrustArticle path="/shipping">
      <Section id="shipping-local" title="Laguna Beach: free, within 2-3 hours">
        <p className="m-0">
          {`Pay Now on a product is delivered free by our own drivers within 2-3 hours of your order, in Laguna Beach (ZIP ${LOCAL_DELIVERY.zip}). Prizes you win travel the same way, free: their delivery address must be in ${LOCAL_DELIVERY.zip}.`}
        </p>
      </Section>
      <Section id="shipping-cart" title="Cart orders">
        <ul className="m-0 grid gap-1 pl-5">
          <li>{`To a Laguna Beach (${LOCAL_DELIVERY.zip}) address: ${LOCAL_DELIVERY.label}, chosen for you.`}</li>
          {[shippingMethods.standard, shippingMethods.express].map((method) => (
            <li key={method.label}>{`${method.label}: ${formatCents(method.cents)}, ${method.detail}.`}</li>
          ))}
          <li>A cart that holds only prizes ships free by local delivery.</li>
        </ul>
        <p className="m-0">{`Sales tax of ${taxPercent} applies to the products, not to delivery. Cash on delivery is available for cart orders.`}</p>
      </Section>
      <Section id="shipping-track" title="Following your order">
        <p className="m-0">
          Every order has its own page, linked from your receipt and from <A href="/profile?tab=orders">My Profile, Orders</A>, with its status from placed to
          delivered. You get a notification, and an e-mail if you chose e-mails, when it is delivered.
        </p>
      </Section>
    </TrustArticle>
  );
}

function ContactPage({ info }: { info: TrustInfo }) {
  return (
    <TrustArticle path="/contact">
      <Section id="contact-write" title="Write to us">
        <p className="m-0">
          <Mail to={info.supportEmail} />: orders, returns, games, privacy requests and anything else. We answer within one business day; include your order
          number or game number if it is about one.
        </p>
      </Section>
      <Section id="contact-visit" title="Visit">
        <p className="m-0">
          Our sunglasses come from our partner, the <A href="/sunglass-gallery">Laguna Sunglass Gallery</A>, where you can try them on: address, hours and
          directions are on its page.
        </p>
      </Section>
      <Section id="contact-business" title="Businesses">
        <p className="m-0">
          A local business that wants to partner with us applies through the <A href="/business-portal">business portal</A>.
        </p>
      </Section>
    </TrustArticle>
  );
}

/** The page of one trust path. */
export function TrustPage({ path, info }: { path: TrustPath; info: TrustInfo }) {
  switch (path) {
    case '/terms':
      return <TermsPage info={info} />;
    case '/privacy':
      return <PrivacyPage info={info} />;
    case '/returns':
      return <ReturnsPage info={info} />;
    case '/shipping':
      return <ShippingPage />;
    case '/contact':
      return <ContactPage info={info} />;
  }
}
