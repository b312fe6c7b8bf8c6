import { sql } from 'drizzle-orm';
import { ORDER_STATUSES } from '../shared/schemas/admin.ts';
import { PRODUCT_TYPE_NAMES } from '../shared/schemas/catalog.ts';
import { NOTIFICATION_TYPES } from '../shared/views/notifications.ts';
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/*
 * The whole data model: every entity of spec section 3 plus DESIGN section 3's additions.
 * Money is integer cents (`*Cents`), time is epoch milliseconds UTC (`*At`, `*Time`).
 */

export const productTypes = PRODUCT_TYPE_NAMES;
export type ProductType = (typeof productTypes)[number];

export const users = sqliteTable(
  'users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
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
  // Usernames are unique regardless of case: 'Alice' and 'alice' are one account.
  (t) => [uniqueIndex('users_username_unique').on(sql`lower(${t.username})`)],
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
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export const products = sqliteTable(
  'products',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    productType: text('product_type', { enum: productTypes }).notNull().default('sunglasses'),
    /** For books: the book's name. */
    brand: text('brand').notNull(),
    /** The SKU. */
    model: text('model').notNull(),
    /** For books: the page count. */
    size: text('size').notNull().default(''),
    quantity: integer('quantity').notNull().default(0),
    priceCents: integer('price_cents').notNull(),
    imageUrl: text('image_url').notNull().default(''),
    /** May carry the 'BADGE:{text};;' or 'AUTHOR:{author};;' marker. */
    description: text('description'),
    buyNowEnabled: integer('buy_now_enabled', { mode: 'boolean' }).notNull().default(true),
    bidEnabled: integer('bid_enabled', { mode: 'boolean' }).notNull().default(false),
    playEnabled: integer('play_enabled', { mode: 'boolean' }).notNull().default(false),
    halfPriceEnabled: integer('half_price_enabled', { mode: 'boolean' }).notNull().default(false),
    mysteryBoxEnabled: integer('mystery_box_enabled', { mode: 'boolean' }).notNull().default(false),
    buyOnePlayFreeEnabled: integer('buy_one_play_free_enabled', { mode: 'boolean' }).notNull().default(false),
    donateEnabled: integer('donate_enabled', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    index('products_type_idx').on(t.productType, t.id),
    // The home galleries and the 'Newest' sort read a type newest first without sorting.
    index('products_type_newest_idx').on(t.productType, t.createdAt, t.id),
  ],
);

export const bids = sqliteTable('bids', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  productId: integer('product_id')
    .notNull()
    .references(() => products.id, { onDelete: 'cascade' }),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  amountCents: integer('amount_cents').notNull(),
  createdAt: integer('created_at').notNull(),
});

export const influencers = sqliteTable('influencers', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  handle: text('handle').notNull().unique(),
  avatar: text('avatar').notNull().default(''),
  /** JSON map of platform to followers text ('2.4M'). */
  platforms: text('platforms', { mode: 'json' }).$type<Record<string, string>>().notNull(),
  /** Percent; calibrates the simulated metrics. */
  engagementRate: real('engagement_rate').notNull().default(2),
  category: text('category').notNull().default(''),
  /** Last computed overall score, for listing. */
  score: real('score').notNull().default(0),
  createdAt: integer('created_at').notNull(),
  /** A retired influencer can no longer be picked; past games keep it. */
  retiredAt: integer('retired_at'),
});

/** Snapshots of each influencer's metrics per platform, so a settled game can be audited. */
export const influencerMetrics = sqliteTable(
  'influencer_metrics',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    influencerId: integer('influencer_id')
      .notNull()
      .references(() => influencers.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    /** Start of the minute the snapshot describes. */
    minuteAt: integer('minute_at').notNull(),
    followers: integer('followers').notNull(),
    engagement: real('engagement').notNull(),
    growth: real('growth').notNull(),
    posts: integer('posts').notNull(),
    points: real('points').notNull(),
    source: text('source').notNull(),
    takenAt: integer('taken_at').notNull(),
  },
  (t) => [uniqueIndex('influencer_metrics_unique').on(t.influencerId, t.platform, t.minuteAt), index('influencer_metrics_minute_idx').on(t.minuteAt)],
);

export const metricsSourceNames = ['simulated', 'feed'] as const;
export type MetricsSourceName = (typeof metricsSourceNames)[number];
export const gameStatuses = ['waiting', 'active', 'completed', 'canceled'] as const;
/**
 * 'unclaimed' (won, not in the cart), 'cart', 'buying' (a checkout holding it is being paid),
 * 'bought', 'donated', 'expired' (not claimed in time; the reserved unit went back to stock).
 */
export const prizeOutcomes = ['unclaimed', 'cart', 'buying', 'bought', 'donated', 'expired'] as const;
export type PrizeOutcome = (typeof prizeOutcomes)[number];
export type GameStatus = (typeof gameStatuses)[number];

export const games = sqliteTable(
  'games',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    status: text('status', { enum: gameStatuses }).notNull().default('waiting'),
    requiredParticipants: integer('required_participants').notNull(),
    startTime: integer('start_time'),
    endTime: integer('end_time'),
    winnerPlayId: integer('winner_play_id'),
    /**
     * The prize's state: 'cart' (waiting in the winner's cart), 'buying' (a checkout holding it
     * is being paid), 'bought', or 'donated'. Each move is a conditional UPDATE, so buying and
     * donating exclude each other and each happens at most once.
     */
    prizeOutcome: text('prize_outcome', { enum: prizeOutcomes }),
    /** When the winner was reminded that an unclaimed prize is about to go back to stock. */
    prizeRemindedAt: integer('prize_reminded_at'),
    createdAt: integer('created_at').notNull(),
    settledAt: integer('settled_at'),
    canceledAt: integer('canceled_at'),
    /** Why a game was canceled, in words a player reads. */
    cancelReason: text('cancel_reason'),
    /** 'simulated' or 'feed': where this game's metrics come from, fixed when it opens. */
    metricsSource: text('metrics_source', { enum: metricsSourceNames }).notNull().default('simulated'),
    /** Commit and reveal: 32 random bytes (hex) drawn when the game opens, secret until it is over. */
    seed: text('seed'),
    /** Hex SHA-256 of the seed's 32 bytes, public from the start. */
    seedHash: text('seed_hash'),
    /** Each picked influencer's platforms and engagement, frozen when the game starts. */
    calibration: text('calibration', { mode: 'json' }).$type<Record<string, InfluencerCalibration>>(),
  },
  (t) => [
    index('games_product_status_idx').on(t.productId, t.status),
    index('games_status_idx').on(t.status, t.endTime),
    index('games_settled_idx').on(t.settledAt),
  ],
);

/** What scoring needs to know of an influencer; frozen per game so later edits change nothing. */
export interface InfluencerCalibration {
  name: string;
  handle: string;
  platforms: Record<string, string>;
  engagementRate: number;
}

/**
 * The frozen scoring record of a settled game (see GameRecord in domain/games/record.ts). No
 * foreign key: it outlives its product, and no retention job touches it.
 */
export const gameRecords = sqliteTable('game_records', {
  gameId: integer('game_id').primaryKey(),
  productId: integer('product_id').notNull(),
  record: text('record', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  createdAt: integer('created_at').notNull(),
});

/** Responsible play: 18+ and rules consent, a daily entry limit, self-exclusion. */
export const playerSettings = sqliteTable('player_settings', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  consentedAt: integer('consented_at'),
  dailyEntryLimit: integer('daily_entry_limit'),
  excludedUntil: integer('excluded_until'),
  exclusionPeriod: text('exclusion_period'),
  updatedAt: integer('updated_at').notNull(),
});

/** pending: picked, not paid; authorizing: its $1 hold is being asked for; entered; void. */
export const playStatuses = ['pending', 'authorizing', 'entered', 'void'] as const;

export const plays = sqliteTable(
  'plays',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    gameId: integer('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** JSON array of influencer ids as strings, as the spec's client sends them. */
    influencerIds: text('influencer_ids', { mode: 'json' }).$type<string[]>().notNull(),
    /** pending until its $1 authorization succeeds; void when it never did. */
    status: text('status', { enum: playStatuses }).notNull().default('pending'),
    score: real('score'),
    enteredAt: integer('entered_at'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('plays_game_user_unique').on(t.gameId, t.userId),
    index('plays_user_idx').on(t.userId, t.createdAt),
    index('plays_game_status_idx').on(t.gameId, t.status),
    index('plays_status_created_idx').on(t.status, t.createdAt),
  ],
);

export const orderStatuses = ORDER_STATUSES;

export const orders = sqliteTable(
  'orders',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orderDate: integer('order_date').notNull(),
    totalCents: integer('total_cents').notNull(),
    subtotalCents: integer('subtotal_cents').notNull(),
    taxCents: integer('tax_cents').notNull(),
    shippingCents: integer('shipping_cents').notNull(),
    status: text('status', { enum: orderStatuses }).notNull().default('pending'),
    customerName: text('customer_name'),
    customerEmail: text('customer_email'),
    customerPhone: text('customer_phone'),
    shippingAddress: text('shipping_address'),
    shippingCity: text('shipping_city'),
    shippingState: text('shipping_state'),
    shippingZipCode: text('shipping_zip_code'),
    shippingCountry: text('shipping_country'),
    /** square, apple_pay, cod, play */
    paymentMethod: text('payment_method').notNull(),
    shippingMethod: text('shipping_method').notNull(),
    /** The gateway's payment id once paid. */
    paymentId: text('payment_id'),
    notes: text('notes'),
    /**
     * What this order pays for ('cart:{userId}', 'buy:{userId}:{productId}'). While the order is
     * pending no second order with the same key can exist: one payment attempt at a time.
     */
    checkoutKey: text('checkout_key'),
    /** The card as the gateway reported it, for the receipt ('Visa', '1111'). */
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    deliveredAt: integer('delivered_at'),
    canceledAt: integer('canceled_at'),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('orders_user_idx').on(t.userId, t.orderDate),
    uniqueIndex('orders_checkout_in_flight').on(t.checkoutKey).where(sql`status = 'pending'`),
    index('orders_status_idx').on(t.status),
  ],
);

export const orderItems = sqliteTable('order_items', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  orderId: integer('order_id')
    .notNull()
    .references(() => orders.id, { onDelete: 'cascade' }),
  productId: integer('product_id').references(() => products.id, { onDelete: 'set null' }),
  quantity: integer('quantity').notNull(),
  priceCents: integer('price_cents').notNull(),
  /** buy_now or play */
  purchaseType: text('purchase_type').notNull().default('buy_now'),
  /** Name at the time of sale, so history survives a deleted product. */
  productLabel: text('product_label').notNull().default(''),
  /** The cart line it came from: emptied once the order is paid, whoever finishes it. */
  cartItemId: integer('cart_item_id'),
  /** The game a prize was won in. */
  gameId: integer('game_id'),
});

export const cartItems = sqliteTable(
  'cart_items',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull().default(1),
    priceCents: integer('price_cents').notNull(),
    /** regular, or play for a won prize at $1 */
    type: text('type', { enum: ['regular', 'play'] })
      .notNull()
      .default('regular'),
    /** The game a play prize was won in. */
    gameId: integer('game_id').references(() => games.id, { onDelete: 'set null' }),
    addedAt: integer('added_at').notNull(),
  },
  (t) => [index('cart_items_user_idx').on(t.userId)],
);

export interface ProfileAddress {
  line1: string;
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

export const paymentKinds = ['play_authorization', 'order_charge', 'refund'] as const;
/**
 * In-between states are written with the idempotency key before the gateway is called, and
 * left in place when the answer is unknown; the reconciler asks the gateway for the truth.
 * Terminal: captured, voided, failed, refunded, and capture_failed / void_failed / expired for
 * holds the gateway would no longer move (an admin sees them).
 */
export const inBetweenPaymentStatuses = ['charging', 'authorizing', 'capturing', 'voiding', 'refunding'] as const;
export const paymentStatuses = [
  ...inBetweenPaymentStatuses,
  'authorized',
  'captured',
  'voided',
  'failed',
  'refunded',
  'capture_failed',
  'void_failed',
  'expired',
] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

export const payments = sqliteTable(
  'payments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: paymentKinds }).notNull(),
    status: text('status', { enum: paymentStatuses }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'set null' }),
    playId: integer('play_id').references(() => plays.id, { onDelete: 'set null' }),
    gateway: text('gateway').notNull(),
    gatewayPaymentId: text('gateway_payment_id'),
    /** Derived from our own row id, so a retried call never charges twice. */
    idempotencyKey: text('idempotency_key').notNull().unique(),
    errorCode: text('error_code'),
    /** The gateway's words for the last failure, for the admin. */
    errorDetail: text('error_detail'),
    /** Gateway calls made for the in-between state; bounded for captures and voids. */
    attempts: integer('attempts').notNull().default(0),
    /** The reconciler leaves the row alone until then (a lease while a call is made, then backoff). */
    nextAttemptAt: integer('next_attempt_at'),
    /** When an admin looked at a payment that needed attention and settled it. */
    reviewedAt: integer('reviewed_at'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('payments_play_idx').on(t.playId), index('payments_order_idx').on(t.orderId), index('payments_status_idx').on(t.status, t.nextAttemptAt)],
);

/**
 * Idempotency-Key of POST /api/checkout, /api/orders and /api/payments: the same key from the
 * same user gets the first answer again and does nothing more.
 */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'POST /api/checkout' */
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of the request body: the same key with another body is refused. */
    requestHash: text('request_hash').notNull(),
    /** null while the first request runs. */
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.scope, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

export const notificationTypes = NOTIFICATION_TYPES;

export const notifications = sqliteTable(
  'notifications',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: notificationTypes }).notNull(),
    title: text('title').notNull(),
    message: text('message').notNull(),
    actionUrl: text('action_url'),
    actionText: text('action_text'),
    productId: integer('product_id'),
    gameId: integer('game_id'),
    read: integer('read', { mode: 'boolean' }).notNull().default(false),
    /** What happened ('order:12:paid'): one notification per event and user, however often it is told. */
    eventKey: text('event_key'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('notifications_user_idx').on(t.userId, t.createdAt), uniqueIndex('notifications_event_unique').on(t.userId, t.eventKey)],
);

export const emailKinds = [
  'order_confirmation',
  'order_refund',
  'order_delivered',
  'game_won',
  'prize_reminder',
  'prize_returned',
  'password_reset',
  'email_change',
  'business_application',
] as const;
export type EmailKind = (typeof emailKinds)[number];
export const emailStatuses = ['pending', 'sent', 'failed', 'skipped'] as const;

/**
 * The e-mail outbox: a message is written in the transaction of the change it reports and
 * sent (and retried) by the mail job (domain/mail/). Links in the bodies are relative to
 * PUBLIC_URL until they are sent.
 */
export const emailOutbox = sqliteTable(
  'email_outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    toAddress: text('to_address').notNull(),
    kind: text('kind', { enum: emailKinds }).notNull(),
    /** What happened ('order:12:paid'): one message per event, however often a step runs. */
    eventKey: text('event_key').notNull().unique(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
    status: text('status', { enum: emailStatuses }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at'),
    lastError: text('last_error'),
    /** The SMTP message id, or the .eml file name. */
    messageId: text('message_id'),
    createdAt: integer('created_at').notNull(),
    sentAt: integer('sent_at'),
  },
  (t) => [index('email_outbox_status_idx').on(t.status, t.nextAttemptAt), index('email_outbox_user_idx').on(t.userId)],
);

export const accountTokenPurposes = ['password_reset', 'email_change'] as const;

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
    /** The new address an e-mail change confirms. */
    email: text('email'),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('account_tokens_user_idx').on(t.userId, t.purpose)],
);

export const businessTypes = ['retail', 'restaurant', 'gallery', 'service', 'hotel', 'other'] as const;

export const businessApplications = sqliteTable('business_applications', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  businessName: text('business_name').notNull(),
  contactName: text('contact_name').notNull(),
  email: text('email').notNull(),
  phone: text('phone').notNull(),
  address: text('address').notNull(),
  city: text('city').notNull().default('Laguna Beach'),
  zipCode: text('zip_code').notNull(),
  businessType: text('business_type', { enum: businessTypes }).notNull(),
  description: text('description').notNull(),
  website: text('website'),
  instagramHandle: text('instagram_handle'),
  termsAgreed: integer('terms_agreed', { mode: 'boolean' }).notNull(),
  userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  createdAt: integer('created_at').notNull(),
});

export const coachSignups = sqliteTable('coach_signups', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  email: text('email').notNull().unique(),
  createdAt: integer('created_at').notNull(),
});

/** Small key-value store for values generated once, such as the development admin PIN. */
export const appSettings = sqliteTable('app_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * Sign-in, registration, PIN and card attempts, one row per counted event, shared by every
 * process on the database (domain/rate-limit.ts). Old rows are pruned by the retention job.
 */
export const rateLimitEvents = sqliteTable(
  'rate_limit_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** Which limit counts it: 'login-ip', 'login-username', 'register-ip', ... */
    bucket: text('bucket').notNull(),
    key: text('key').notNull(),
    at: integer('at').notNull(),
  },
  (t) => [index('rate_limit_events_key_idx').on(t.bucket, t.key, t.at), index('rate_limit_events_at_idx').on(t.at)],
);

/**
 * Counters bumped by triggers (migration 0004) whenever something a visitor's page shows
 * changes: products, games, plays. Every process compares 'storefront' with the value its
 * page cache was filled at, so a sale or a price change on one process reaches all of them.
 */
export const changeCounters = sqliteTable('change_counters', {
  name: text('name').primaryKey(),
  value: integer('value').notNull(),
});

/**
 * What changed, for the live stream (GET /api/events): a row per change of a topic
 * ('product:{id}', 'scoreboard', 'user:{id}'), written by triggers (migration 0006) in the
 * transaction of the change, whichever process made it; the stream sends each subscriber the
 * new state of its topics, and a reconnect resumes after the last id it saw.
 */
export const liveEvents = sqliteTable(
  'live_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    topic: text('topic').notNull(),
    /** Unix seconds (SQLite's clock: triggers have no other), for pruning. */
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('live_events_created_idx').on(t.createdAt)],
);

/**
 * What the header shows a signed-in user (cart count, notifications, profile dot) changes
 * whenever this row's version moves: triggers on cart_items, notifications and user_profiles
 * (migration 0007) bump it in the transaction of the change, whichever process made it. The
 * session lookup reads it, so a page's header from the viewer cache is never one change behind.
 */
export const viewerVersions = sqliteTable('viewer_versions', {
  userId: integer('user_id').primaryKey(),
  version: integer('version').notNull(),
});

/** Who runs the game jobs: one process holds the lease and renews it; another takes it once it expires. */
export const jobLeases = sqliteTable('job_leases', {
  name: text('name').primaryKey(),
  /** 'host:pid:random' of the process holding it. */
  holder: text('holder').notNull(),
  expiresAt: integer('expires_at').notNull(),
  renewedAt: integer('renewed_at').notNull(),
  /** When the holder last finished a tick of every job: the jobs heartbeat of /readyz. */
  tickedAt: integer('ticked_at'),
});

export type User = typeof users.$inferSelect;
export type Session = typeof sessions.$inferSelect;
export type Product = typeof products.$inferSelect;
export type Influencer = typeof influencers.$inferSelect;
export type Game = typeof games.$inferSelect;
export type Play = typeof plays.$inferSelect;
