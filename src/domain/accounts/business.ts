import { desc } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { businessApplications, type businessTypes as storedBusinessTypes } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { validationError } from '../errors.ts';
import { composeEmail } from '../mail/compose.ts';
import { queueEmail } from '../mail/outbox.ts';
import { BUSINESS_CITY, businessApplicationSchema, normalizeInstagram, normalizeWebsite, type BusinessType } from '../../shared/schemas/business.ts';

// The browser-safe list in the shared schema and the table's list must stay the same six types.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const typesMatch: Same<BusinessType, (typeof storedBusinessTypes)[number]> = true;
void typesMatch;

type StoredApplication = typeof businessApplications.$inferSelect;

/** A business application as the API answers and the admin tab lists it. */
export interface BusinessApplicationView {
  id: number;
  businessName: string;
  contactName: string;
  email: string;
  phone: string;
  address: string;
  city: string;
  zipCode: string;
  businessType: BusinessType;
  description: string;
  website: string | null;
  instagramHandle: string | null;
  termsAgreed: boolean;
  /** The signed-in user who applied, if any. */
  userId: number | null;
  /** Epoch milliseconds. */
  createdAt: number;
}

export function businessApplicationView(row: StoredApplication): BusinessApplicationView {
  return {
    id: row.id,
    businessName: row.businessName,
    contactName: row.contactName,
    email: row.email,
    phone: row.phone,
    address: row.address,
    city: row.city,
    zipCode: row.zipCode,
    businessType: row.businessType,
    description: row.description,
    website: row.website,
    instagramHandle: row.instagramHandle,
    termsAgreed: row.termsAgreed,
    userId: row.userId,
    createdAt: row.createdAt,
  };
}

/**
 * POST /api/business-applications and the /business-portal form: checks spec section 5's
 * rules and stores the application. The city is always Laguna Beach, whatever was sent.
 */
export function submitBusinessApplication(deps: { db: Db; clock: Clock }, input: unknown, userId: number | null): BusinessApplicationView {
  const parsed = businessApplicationSchema.safeParse(input);
  if (!parsed.success) throw validationError(parsed.error);
  const data = parsed.data;
  return deps.db.transaction((tx) => {
    const row = tx
      .insert(businessApplications)
      .values({
        businessName: data.businessName,
        contactName: data.contactName,
        email: data.email,
        phone: data.phone,
        address: data.address,
        city: BUSINESS_CITY,
        zipCode: data.zipCode,
        businessType: data.businessType,
        description: data.description,
        website: data.website ? normalizeWebsite(data.website) : null,
        instagramHandle: data.instagramHandle ? normalizeInstagram(data.instagramHandle) : null,
        termsAgreed: true,
        userId,
        createdAt: deps.clock.now(),
      })
      .returning()
      .get();
    // The applicant has no account: the message goes to the address on the form, with the application.
    queueEmail(tx, deps.clock, {
      userId: null,
      to: row.email,
      kind: 'business_application',
      eventKey: `business-application:${row.id}:received`,
      subject: 'Application received',
      body: composeEmail({
        heading: `Thank you, ${row.contactName}`,
        paragraphs: [
          `We've received the partner application for ${row.businessName} and will contact you soon, within 2-3 business days.`,
          'You do not need to do anything else now. If something in your application changes, reply to this message.',
        ],
        rows: [
          ['Business', row.businessName],
          ['Contact', row.contactName],
          ['Phone', row.phone],
          ['Address', `${row.address}, ${row.city} ${row.zipCode}`],
        ],
        action: { label: 'Visit the store', path: '/' },
        footnote: 'You get this message because this address was given in a partner application on our Business Portal.',
      }),
    });
    return businessApplicationView(row);
  });
}

/** The applications, newest first (GET /api/business-applications: all of them; the admin's Applications tab: the latest `limit`). */
export function listBusinessApplications(db: Queryable, limit = -1): BusinessApplicationView[] {
  return db
    .select()
    .from(businessApplications)
    .orderBy(desc(businessApplications.createdAt), desc(businessApplications.id))
    .limit(limit)
    .all()
    .map(businessApplicationView);
}
