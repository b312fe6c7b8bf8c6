import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { influencers, type Influencer } from '../db/schema.ts';
import type { Clock } from './clock.ts';
import { DomainError } from './errors.ts';
import type { ImageStore } from './images.ts';

/*
 * The admin's Influencers tab: add, edit and retire the people players pick. A retired influencer
 * can no longer be picked (entry.ts, views.ts) but keeps its history; games already started
 * froze what they use of it (scoring.ts), so an edit never changes a running game.
 */

export const PLATFORMS = ['instagram', 'tiktok', 'youtube', 'twitter'] as const;
const FOLLOWERS_TEXT = /^\d{1,7}(\.\d{1,3})?[KMB]?$/i;
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
    if (!FOLLOWERS_TEXT.test(followers)) fields[`followers.${platform}`] = 'Followers must be a number with an optional K, M or B, such as 2.4M.';
    else platforms[platform] = followers.toUpperCase();
  }
  if (Object.keys(platforms).length === 0 && !Object.keys(fields).some((key) => key.startsWith('followers.'))) {
    fields.platforms = 'Give the followers of at least one platform.';
  }
  if (Object.keys(fields).length) throw new DomainError(400, Object.values(fields)[0]!, fields);
  return { name, handle, category, engagementRate, platforms };
}

function handleTaken(db: Db, handle: string, exceptId?: number): boolean {
  const row = db
    .select({ id: influencers.id })
    .from(influencers)
    .where(sql`lower(${influencers.handle}) = ${handle.toLowerCase()}`)
    .get();
  return row !== undefined && row.id !== exceptId;
}

const HANDLE_TAKEN = 'Another influencer already has this handle.';

export async function createInfluencer(db: Db, clock: Clock, images: ImageStore, raw: Record<string, unknown>, avatar: File | null): Promise<Influencer> {
  const input = checkInfluencerInput(raw);
  if (handleTaken(db, input.handle)) throw new DomainError(409, HANDLE_TAKEN, { handle: HANDLE_TAKEN });
  const url = avatar && avatar.size > 0 ? await images.save(avatar) : '';
  return db
    .insert(influencers)
    .values({ ...input, avatar: url, createdAt: clock.now() })
    .returning()
    .get();
}

export async function updateInfluencer(db: Db, images: ImageStore, id: number, raw: Record<string, unknown>, avatar: File | null): Promise<Influencer> {
  const current = findInfluencer(db, id);
  const input = checkInfluencerInput(raw);
  if (handleTaken(db, input.handle, id)) throw new DomainError(409, HANDLE_TAKEN, { handle: HANDLE_TAKEN });
  const url = avatar && avatar.size > 0 ? await images.save(avatar) : current.avatar;
  const updated = db.update(influencers).set({ ...input, avatar: url }).where(eq(influencers.id, id)).returning().get()!;
  if (url !== current.avatar) images.remove(current.avatar);
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
