import { describe, expect, test } from 'bun:test';
import { orderDrawView } from '../../src/domain/promotions/mystery-audit.ts';
import { quickShopper } from '../helpers/actors.ts';
import { seededApp } from '../helpers/app.ts';
import { boxOf } from '../helpers/boxes.ts';
import { all, text, textOf } from '../helpers/html.ts';

/*
 * The order page's 'How to check this draw' (issue 37, item 16): a shopper's steps, each with a
 * command they can paste and what it prints, none of them the store's developer command. The
 * commands are run here as printed (python3), so a step that does not compute what the page says
 * fails.
 */

function run(command: string): string {
  const done = Bun.spawnSync(['sh', '-c', command], { stdout: 'pipe', stderr: 'pipe' });
  if (done.exitCode !== 0) throw new Error(`${command}: ${done.stderr.toString()}`);
  return done.stdout.toString().trim();
}

describe("a mystery box's draw, checked by hand from its order page", () => {
  test('the commitment, the revealed seed and three one-line commands that print the commitment, the HMAC and the ticket of the item drawn', async () => {
    const ctx = await seededApp();
    boxOf(ctx, 'sunglasses', [1, 3, 4]);
    const { client } = quickShopper(ctx, 'handcheck');
    const bought = await client.post('/api/mystery-boxes/sunglasses/orders', { json: {}, headers: { 'idempotency-key': crypto.randomUUID() } });
    expect(bought.status).toBe(201);
    const { orderId } = (await bought.json()) as { orderId: number };
    const page = await (await client.get(`/orders/${orderId}`)).text();
    const view = orderDrawView(ctx.db, orderId)!;

    const check = textOf(all(page, '[data-draw-check]')[0]!);
    expect(check).not.toContain('bun run');
    expect(check).not.toContain('verify-draw');
    const commands = [1, 2, 3].map((step) => text(page, `[data-check-step="${step}"] code`)!);
    expect(commands.every((command) => command.startsWith('python3 -c '))).toBe(true);
    expect(commands.join(' ')).not.toContain('SEED');

    const commitment = text(page, '[data-seed-hash]')!;
    const hmac = text(page, '[data-hmac]')!;
    const ticket = Number(text(page, '[data-ticket]'));
    expect(text(page, '[data-seed]')).toBe(view.seed!);
    // Step 3's command names the HMAC that step 2 prints, so the steps chain as a shopper runs them.
    expect(commands[2]).toContain(`0x${hmac} % 8`);

    if (Bun.which('python3')) {
      expect(run(commands[0]!)).toBe(commitment);
      expect(run(commands[1]!)).toBe(hmac);
      expect(run(commands[2]!)).toBe(String(ticket));
    }
    // Without python3 the same arithmetic here: the page's numbers are the draw's own.
    expect(BigInt(`0x${hmac}`) % 8n).toBe(BigInt(ticket));
    expect(new Bun.CryptoHasher('sha256').update(Buffer.from(view.seed!, 'hex')).digest('hex')).toBe(commitment);

    // Step 4: the ticket falls in the drawn item's row of the Tickets column.
    const [from, to = from] = text(page, `[data-tickets="${view.productId}"]`)!.split('-').map(Number);
    expect(ticket).toBeGreaterThanOrEqual(from!);
    expect(ticket).toBeLessThanOrEqual(to!);
    expect(text(page, '[data-check-step="4"]')).toContain(`ticket ${ticket}`);
    expect(text(page, '[data-check-step="4"]')).toContain(view.productLabel);
    // Three python3 starts (a version manager's shim is slow on a busy machine): no timing asserted.
  }, 30_000);
});
