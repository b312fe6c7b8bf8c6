import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/*
 * Accounts: who signs in (users, sessions), what they keep on file (profiles) and the single-use
 * links e-mailed to them.
 */

export const users = sqliteTable(
  'users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    /**
     * The account's confirmed address: set only by opening a link sent to it, unique in any case.
     * Password resets and unlock links go here and nowhere else; the profile's e-mail is the
     * contact address for receipts (docs/decisions.md, "Accounts an attacker cannot take").
     */
    email: text('email'),
    fullName: text('full_name'),
    phoneNumber: text('phone_number'),
    address: text('address'),
    city: text('city'),
    state: text('state'),
    zipCode: text('zip_code'),
    country: text('country'),
    profileImage: text('profile_image'),
    isAdmin: integer('is_admin', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at').notNull(),
    /** Deleted accounts keep their row (orders stay for the books) with every personal field erased. */
    deletedAt: integer('deleted_at'),
  },
  (t) => [
    // Usernames are unique regardless of case: 'Alice' and 'alice' are one account.
    uniqueIndex('users_username_unique').on(sql`lower(${t.username})`),
    // One account per confirmed address, whatever its letters' case.
    uniqueIndex('users_confirmed_email_unique').on(sql`lower(${t.email})`).where(sql`${t.email} is not null`),
  ],
);

export const sessions = sqliteTable(
  'sessions',
  {
    /** SHA-256 of the session token, hex; the token itself is never stored. */
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: integer('expires_at').notNull(),
    createdAt: integer('created_at').notNull(),
    /** When this session passed the admin PIN; admin actions need it. */
    pinVerifiedAt: integer('pin_verified_at'),
    /** The last admin request of the unlocked session: 30 idle minutes lock it again. */
    pinUsedAt: integer('pin_used_at'),
    pinFailures: integer('pin_failures').notNull().default(0),
    pinLockedUntil: integer('pin_locked_until'),
  },
  // The hourly clean-up finds expired sessions by their end.
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

export interface ProfileAddress {
  line1: string;
  /** Apartment, suite or unit; optional (absent in profiles saved before it existed). */
  line2?: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
}

export interface StoredPaymentMethod {
  type: string;
  cardBrand?: string;
  lastFourDigits?: string;
  expMonth?: number;
  expYear?: number;
}

export const userProfiles = sqliteTable('user_profiles', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  userId: integer('user_id')
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  name: text('name'),
  email: text('email'),
  phone: text('phone'),
  address: text('address', { mode: 'json' }).$type<ProfileAddress>(),
  paymentMethod: text('payment_method', { mode: 'json' }).$type<StoredPaymentMethod>(),
  /** The gateway's customer and card-on-file ids; the card token is never kept. */
  gatewayCustomerId: text('gateway_customer_id'),
  gatewayCardId: text('gateway_card_id'),
  emailNotifications: integer('email_notifications', { mode: 'boolean' }).notNull().default(true),
  smsNotifications: integer('sms_notifications', { mode: 'boolean' }).notNull().default(false),
  newsletterSubscription: integer('newsletter_subscription', { mode: 'boolean' }).notNull().default(false),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * 'email_confirm' confirms an account's first address (opening it also asks the password: no
 * password was asked when the address was typed), 'email_change' a new one (the password was
 * asked then); 'login_unlock' lifts the sign-in pause after repeated wrong passwords.
 */
export const accountTokenPurposes = ['password_reset', 'email_change', 'email_confirm', 'login_unlock'] as const;

/** Single-use links e-mailed to a user; only the SHA-256 of the token is stored. */
export const accountTokens = sqliteTable(
  'account_tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: accountTokenPurposes }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** The address an e-mail link confirms (the first one, or a new one). */
    email: text('email'),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('account_tokens_user_idx').on(t.userId, t.purpose)],
);

export type User = typeof users.$inferSelect;
export type Session = typeof sessions.$inferSelect;
