import { eq, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { appSettings, users } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { findUserByUsername } from './accounts.ts';
import type { PasswordHasher } from './passwords.ts';

/** Secrets generated on a development machine's first start, to be printed once. */
export interface GeneratedSecrets {
  adminUsername?: string;
  adminPassword?: string;
  adminPin?: string;
}

function randomDigits(count: number): string {
  const bytes = crypto.getRandomValues(new Uint32Array(count));
  return Array.from(bytes, (b) => String(b % 10)).join('');
}

function randomPassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = crypto.getRandomValues(new Uint32Array(16));
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

/* Every new store runs these (each test opens one): built once (db/prepared.ts). */
const insertAdmin = preparedOnce((db) =>
  db
    .insert(users)
    .values({ username: sql.placeholder('username'), passwordHash: sql.placeholder('passwordHash'), isAdmin: true, createdAt: sql.placeholder('now') })
    .onConflictDoNothing()
    .returning({ id: users.id })
    .prepare(),
);
const insertPin = preparedOnce((db) =>
  db
    .insert(appSettings)
    .values({ key: 'admin_pin', value: sql.placeholder('pin'), updatedAt: sql.placeholder('now') })
    .onConflictDoNothing()
    .returning({ value: appSettings.value })
    .prepare(),
);
const storedPin = preparedOnce((db) => db.select().from(appSettings).where(eq(appSettings.key, 'admin_pin')).prepare());

/**
 * Creates the bootstrap admin once, and settles the admin PIN: ADMIN_PIN when set, otherwise
 * the PIN generated on the first start (kept in app_settings so it survives restarts).
 * Processes started together on an empty folder may all get here: the inserts do nothing when
 * another process was first (the unique username, the settings key), and only the process
 * whose generated secrets were kept reports them.
 */
export async function bootstrapAdmin(deps: {
  db: Db;
  clock: Clock;
  config: Config;
  passwords: PasswordHasher;
}): Promise<{ adminPin: string; generated: GeneratedSecrets }> {
  const { db, clock, config, passwords } = deps;
  const generated: GeneratedSecrets = {};
  const password = config.adminPassword ?? randomPassword();
  const passwordHash = findUserByUsername(db, config.adminUsername) ? null : await passwords.hash(password);
  // The admin and the PIN in one transaction: whichever process creates the admin creates the
  // PIN with it, so one process reports both.
  return db.transaction((tx) => {
    if (passwordHash !== null) {
      const inserted = insertAdmin(tx).all({ username: config.adminUsername, passwordHash, now: clock.now() });
      if (inserted.length > 0 && !config.adminPassword) {
        generated.adminUsername = config.adminUsername;
        generated.adminPassword = password;
      }
    }
    if (config.adminPin) return { adminPin: config.adminPin, generated };
    const inserted = insertPin(tx).all({ pin: randomDigits(6), now: clock.now() });
    if (inserted[0]) generated.adminPin = inserted[0].value;
    const stored = storedPin(tx).get();
    if (!stored) throw new Error('the admin PIN is missing right after it was written');
    return { adminPin: stored.value, generated };
  });
}
