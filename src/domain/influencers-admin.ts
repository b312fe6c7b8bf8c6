import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { influencers, type Influencer } from '../db/schema.ts';
import type { Clock } from './clock.ts';
import { DomainError } from './errors.ts';
import type { ImageStore } from './images.ts';
import { parseFollowers } from './metrics.ts';

/*
 * The admin's Influencers tab: add, edit and retire the people players pick. A retired influencer
 * can no longer be picked (entry.ts, views.ts) but keeps its history; games already started
 * froze what they use of it (scoring.ts), so an edit never changes a running game.
 */

export const PLATFORMS = ['instagram', 'tiktok', 'youtube', 'twitter'] as const;
/** What the metrics read (parseFollowers), capped so a typo cannot make a giant the simulation believes. */
const FOLLOWERS_TEXT = /^\d+(\.\d+)?[KMB]?$/i;
const MOST_FOLLOWERS = 10e9;
const FOLLOWERS_HINT = 'Followers must be a number with an optional K, M or B, such as 2.4M (at most 10B).';
const HANDLE = /^@[A-Za-z0-9._]{2,30}$/;

export interface InfluencerInput {
  name: string;
  handle: string;
  category: string;
  engagementRate: number;
  platforms: Record<string, string>;
}

/** Reads the form (or JSON) fields; every problem is named in `fields`, and nothing is stored. */
export function checkInfluencerInput(raw: Record<string, unknown>): InfluencerInput {
  const fields: Record<string, string> = {};
  const text = (key: string) => (typeof raw[key] === 'string' ? (raw[key] as string).trim() : '');
  const name = text('name');
  if (name.length < 2 || name.length > 60) fields.name = 'Name must be 2 to 60 characters.';
  let handle = text('handle');
  if (handle && !handle.startsWith('@')) handle = `@${handle}`;
  if (!HANDLE.test(handle)) fields.handle = 'Handle must be @ followed by 2 to 30 letters, digits, dots or underscores.';
  const category = text('category');
  if (category.length > 40) fields.category = 'Category must be at most 40 characters.';
  const rateText = text('engagementRate');
  const engagementRate = /^\d{1,2}(\.\d{1,2})?$/.test(rateText) ? Number(rateText) : NaN;
  if (!(engagementRate >= 0.1 && engagementRate <= 20)) fields.engagementRate = 'Engagement rate must be a number from 0.1 to 20 (percent).';
  const platforms: Record<string, string> = {};
  for (const platform of PLATFORMS) {
    const followers = text(`followers.${platform}`);
    if (!followers) continue;
    const count = followers.length <= 12 && FOLLOWERS_TEXT.test(followers) ? parseFollowers(followers) : 0;
    if (!(count >= 1 && count <= MOST_FOLLOWERS)) fields[`followers.${platform}`] = FOLLOWERS_HINT;
    else platforms[platform] = followers.toUpperCase();
  }
  if (Object.keys(platforms).length === 0 && !Object.keys(fields).some((key) => key.startsWith('followers.'))) {
    fields.platforms = 'Give the followers of at least one platform.';
  }
  if (Object.keys(fields).length) throw new DomainError(400, Object.values(fields)[0]!, fields);
  return { name, handle, category, engagementRate, platforms };
}

function handleTaken(db: Db, handle: string, exceptId?: number): boolean {
  const row = db.select({ id: influencers.id }).from(influencers).where(sql`lower(${influencers.handle}) = ${handle.toLowerCase()}`).get();
  return row !== undefined && row.id !== exceptId;
}

const HANDLE_TAKEN = 'Another influencer already has this handle.';

/** Two admins saving the same handle at once: the second meets the unique index, and hears 409 too. */
function isHandleViolation(error: unknown): boolean {
  return error instanceof Error && /UNIQUE constraint failed: influencers\.handle/.test(error.message);
}

/** Writes the row; a new avatar saved for it is removed again when the write fails. */
function writeOrForget<T>(images: ImageStore, newAvatar: string | null, write: () => T): T {
  try {
    return write();
  } catch (error) {
    if (newAvatar) images.remove(newAvatar);
    if (isHandleViolation(error)) throw new DomainError(409, HANDLE_TAKEN, { handle: HANDLE_TAKEN });
    throw error;
  }
}

export async function createInfluencer(db: Db, clock: Clock, images: ImageStore, raw: Record<string, unknown>, avatar: File | null): Promise<Influencer> {
  const input = checkInfluencerInput(raw);
  if (handleTaken(db, input.handle)) throw new DomainError(409, HANDLE_TAKEN, { handle: HANDLE_TAKEN });
  const url = avatar && avatar.size > 0 ? await images.save(avatar) : null;
  return writeOrForget(images, url, () =>
    db
      .insert(influencers)
      .values({ ...input, avatar: url ?? '', createdAt: clock.now() })
      .returning()
      .get(),
  );
}

export async function updateInfluencer(db: Db, images: ImageStore, id: number, raw: Record<string, unknown>, avatar: File | null): Promise<Influencer> {
  const current = findInfluencer(db, id);
  const input = checkInfluencerInput(raw);
  if (handleTaken(db, input.handle, id)) throw new DomainError(409, HANDLE_TAKEN, { handle: HANDLE_TAKEN });
  const url = avatar && avatar.size > 0 ? await images.save(avatar) : null;
  const updated = writeOrForget(images, url, () => {
    const row = db
      .update(influencers)
      .set({ ...input, avatar: url ?? current.avatar })
      .where(eq(influencers.id, id))
      .returning()
      .get();
    if (!row) throw new DomainError(404, 'Influencer not found');
    return row;
  });
  // The old upload is only dropped once the row points at the new one.
  if (url) images.remove(current.avatar);
  return updated;
}

export function findInfluencer(db: Db, id: number): Influencer {
  const row = Number.isSafeInteger(id) && id > 0 ? db.select().from(influencers).where(eq(influencers.id, id)).get() : undefined;
  if (!row) throw new DomainError(404, 'Influencer not found');
  return row;
}

/** Retire (no longer pickable) or bring back. */
export function setRetired(db: Db, clock: Clock, id: number, retired: boolean): Influencer {
  findInfluencer(db, id);
  return db
    .update(influencers)
    .set({ retiredAt: retired ? clock.now() : null })
    .where(eq(influencers.id, id))
    .returning()
    .get()!;
}

export function listInfluencersForAdmin(db: Db): Influencer[] {
  return db.select().from(influencers).orderBy(sql`${influencers.retiredAt} is not null`, asc(influencers.name)).all();
}
