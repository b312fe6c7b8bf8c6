import { asc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { influencers, type Influencer } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { DomainError, validationError } from '../errors.ts';
import type { ImageStore } from '../catalog/images.ts';
import { type InfluencerInput, influencerInput, PLATFORMS } from '../../shared/schemas/influencer.ts';

export type { Influencer };

/*
 * The admin's Influencers tab: add, edit and retire the people players pick. A retired influencer
 * can no longer be picked (entry.ts, views.ts) but keeps its history; games already started
 * froze what they use of it (scoring.ts), so an edit never changes a running game.
 */

export { PLATFORMS };

/** The form's fields checked by the shared schema; every problem is named in `fields`, and nothing is stored. */
function checkInfluencerInput(raw: unknown): InfluencerInput {
  const result = influencerInput.safeParse(raw);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

function handleTaken(db: Queryable, handle: string, exceptId?: number): boolean {
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

export async function createInfluencer(db: Queryable, clock: Clock, images: ImageStore, raw: unknown, avatar: File | null): Promise<Influencer> {
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

export async function updateInfluencer(db: Queryable, images: ImageStore, id: number, raw: unknown, avatar: File | null): Promise<Influencer> {
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

export function findInfluencer(db: Queryable, id: number): Influencer {
  const row = Number.isSafeInteger(id) && id > 0 ? db.select().from(influencers).where(eq(influencers.id, id)).get() : undefined;
  if (!row) throw new DomainError(404, 'Influencer not found');
  return row;
}

/** Retire (no longer pickable) or bring back. */
export function setRetired(db: Queryable, clock: Clock, id: number, retired: boolean): Influencer {
  findInfluencer(db, id);
  return db
    .update(influencers)
    .set({ retiredAt: retired ? clock.now() : null })
    .where(eq(influencers.id, id))
    .returning()
    .get()!;
}

export function listInfluencersForAdmin(db: Queryable): Influencer[] {
  return db.select().from(influencers).orderBy(sql`${influencers.retiredAt} is not null`, asc(influencers.name)).all();
}
