import { expect, test } from 'bun:test';
import { storeBeforeMigration } from '../helpers/migrations.ts';

/*
 * Issue 25, row 8: users.email became the confirmed account address. Migration 0010 keeps only
 * the addresses an e-mail change link confirmed (the older account's when two confirmed one),
 * and clears the rest, which the profile keeps as the contact address.
 */

test('migration 0010: only addresses confirmed by a link stay the account address; the profile keeps its contact address', async () => {
  const store = storeBeforeMigration('0010_');
  try {
    const { db } = store;
    const sql = db.$client;
    const user = sql.query('insert into users (id, username, password_hash, email, created_at) values (?, ?, ?, ?, 1)');
    user.run(1, 'taken-on-word', 'x', 'victim@example.com');
    user.run(2, 'confirmed', 'x', 'Owner@Example.com');
    user.run(3, 'confirmed-later', 'x', 'owner@example.com');
    user.run(4, 'no-address', 'x', null);
    sql.query("insert into user_profiles (user_id, email, updated_at) values (1, 'victim@example.com', 1)").run();
    const link = sql.query(
      "insert into account_tokens (user_id, purpose, token_hash, email, expires_at, used_at, created_at) values (?, 'email_change', ?, ?, 9, ?, 1)",
    );
    link.run(2, 'h2', 'owner@example.com', 5);
    link.run(3, 'h3', 'owner@example.com', 6);
    link.run(1, 'h1', 'victim@example.com', null); // sent, never opened

    await store.migrateRest();
    const emails = sql.query('select id, email from users order by id').all() as { id: number; email: string | null }[];
    expect(emails).toEqual([
      { id: 1, email: null },
      { id: 2, email: 'Owner@Example.com' },
      { id: 3, email: null },
      { id: 4, email: null },
    ]);
    expect((sql.query('select email from user_profiles where user_id = 1').get() as { email: string }).email).toBe('victim@example.com');
    expect(() => sql.query("update users set email = 'OWNER@example.com' where id = 4").run()).toThrow('UNIQUE');
    sql.close();
  } finally {
    store.remove();
  }
});
