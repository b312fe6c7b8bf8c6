import { describe, expect, test } from 'bun:test';
import { count } from 'drizzle-orm';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { openMigratedDatabase } from '../../src/db/client.ts';
import { influencers, products, users } from '../../src/db/schema.ts';
import { seedIfEmpty } from '../../src/db/seed.ts';
import { bootstrapAdmin } from '../../src/domain/accounts/bootstrap-admin.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import { projectRoot } from '../../src/runtime-files.ts';
import { argon2idHasher, TEST_PASSWORD_COST } from '../../src/domain/accounts/passwords.ts';

describe('seedIfEmpty', () => {
  test('fills an empty store with a realistic catalogue and influencers, once', async () => {
    const db = await openMigratedDatabase();
    const clock = new ManualClock();
    expect(seedIfEmpty(db, clock).seeded).toBe(true);
    const all = db.select().from(products).all();
    for (const type of ['sunglasses', 'tshirt', 'shoe', 'book'] as const) {
      const ofType = all.filter((p) => p.productType === type);
      expect(ofType.length).toBeGreaterThanOrEqual(6);
      expect(ofType.some((p) => p.playEnabled)).toBe(true);
    }
    const prices = all.map((p) => p.priceCents);
    expect(Math.min(...prices)).toBe(200);
    expect(Math.max(...prices)).toBe(40000);
    expect(all.some((p) => p.quantity === 0)).toBe(true);
    expect(all.some((p) => p.quantity > 0 && p.quantity <= 5)).toBe(true);
    expect(all.filter((p) => p.description?.startsWith('BADGE:')).length).toBeGreaterThan(0);
    for (const book of all.filter((p) => p.productType === 'book')) {
      expect(book.description).toMatch(/^AUTHOR:[^;]+;;.+/);
      expect(Number(book.size)).toBeGreaterThan(0);
    }
    for (const product of all) expect(existsSync(join(projectRoot, product.imageUrl))).toBe(true);
    const people = db.select().from(influencers).all();
    expect(people.length).toBeGreaterThanOrEqual(12);
    for (const person of people) {
      expect(person.handle.startsWith('@')).toBe(true);
      expect(Object.keys(person.platforms).length).toBeGreaterThan(0);
      for (const followers of Object.values(person.platforms)) expect(followers).toMatch(/^\d+(\.\d+)?[KMB]$/);
      expect(existsSync(join(projectRoot, person.avatar))).toBe(true);
    }
    expect(seedIfEmpty(db, clock).seeded).toBe(false);
    expect(db.select({ n: count() }).from(products).get()!.n).toBe(all.length);
  });
});

describe('bootstrapAdmin', () => {
  const passwords = argon2idHasher(TEST_PASSWORD_COST);
  test('development: creates the admin once and generates a PIN that survives restarts', async () => {
    const db = await openMigratedDatabase();
    const clock = new ManualClock();
    const config = loadConfig({});
    const first = await bootstrapAdmin({ db, clock, config, passwords });
    expect(first.generated.adminUsername).toBe('admin');
    expect(first.generated.adminPassword!.length).toBeGreaterThanOrEqual(12);
    expect(first.adminPin).toMatch(/^\d{6}$/);
    const second = await bootstrapAdmin({ db, clock, config, passwords });
    expect(second.generated).toEqual({});
    expect(second.adminPin).toBe(first.adminPin);
    const admins = db.select().from(users).all();
    expect(admins).toHaveLength(1);
    expect(admins[0]!.isAdmin).toBe(true);
    expect(await Bun.password.verify(first.generated.adminPassword!, admins[0]!.passwordHash)).toBe(true);
  });

  test('configured secrets are used and nothing is generated', async () => {
    const db = await openMigratedDatabase();
    const config = loadConfig({ ADMIN_USERNAME: 'owner', ADMIN_PASSWORD: 'owner-pass', ADMIN_PIN: '9876' });
    const result = await bootstrapAdmin({ db, clock: new ManualClock(), config, passwords });
    expect(result).toEqual({ adminPin: '9876', generated: {} });
    const owner = db.select().from(users).get()!;
    expect(owner.username).toBe('owner');
    expect(await Bun.password.verify('owner-pass', owner.passwordHash)).toBe(true);
  });
});
