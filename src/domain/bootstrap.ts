import { eq } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { appSettings, users } from '../db/schema.ts';
import type { Clock } from './clock.ts';
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

/**
 * Creates the bootstrap admin once, and settles the admin PIN: ADMIN_PIN when set, otherwise
 * the PIN generated on the first start (kept in app_settings so it survives restarts).
 */
export async function bootstrapAdmin(deps: {
  db: Db;
  clock: Clock;
  config: Config;
  passwords: PasswordHasher;
}): Promise<{ adminPin: string; generated: GeneratedSecrets }> {
  const { db, clock, config, passwords } = deps;
  const generated: GeneratedSecrets = {};
  if (!findUserByUsername(db, config.adminUsername)) {
    const password = config.adminPassword ?? randomPassword();
    if (!config.adminPassword) {
      generated.adminUsername = config.adminUsername;
      generated.adminPassword = password;
    }
    db.insert(users)
      .values({
        username: config.adminUsername,
        passwordHash: await passwords.hash(password),
        isAdmin: true,
        createdAt: clock.now(),
      })
      .run();
  }
  if (config.adminPin) return { adminPin: config.adminPin, generated };
  const stored = db.select().from(appSettings).where(eq(appSettings.key, 'admin_pin')).get();
  if (stored) return { adminPin: stored.value, generated };
  const adminPin = randomDigits(6);
  db.insert(appSettings).values({ key: 'admin_pin', value: adminPin, updatedAt: clock.now() }).run();
  generated.adminPin = adminPin;
  return { adminPin, generated };
}
