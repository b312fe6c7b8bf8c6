import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './accounts.ts';

/*
 * Forms the public sends in: business applications and coach sign-ups.
 */

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
