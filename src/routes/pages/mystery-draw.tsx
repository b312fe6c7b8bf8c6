import { formatDateTime } from '../../components/format.ts';
import type { OrderDrawView } from '../../domain/promotions/mystery-audit.ts';

/*
 * A mystery box's draw where its buyer reads it: the order page. Everything needed to check the
 * draw without trusting the store: the hash that was public before the purchase, the seed (used
 * for this draw only, so revealing it tells nothing about the next one), the stock drawn from,
 * (a size's units, for a tee or shoe box) and each step with a one-line command and what it prints.
 */

/** An item's exact chance: 3 of 8 (37.5%). */
export function chanceText(units: number, total: number): string {
  const percent = (units * 100) / total;
  return `${units} of ${total} (${Number.isInteger(percent) ? percent : percent.toFixed(2)}%)`;
}

const code = 'rounded bg-slate-100 px-1 py-0.5 font-mono text-xs break-all';

export function MysteryDrawPanel({ draw, orderId }: { draw: OrderDrawView; orderId: number }) {
  const total = draw.stock.reduce((sum, line) => sum + line.units, 0);
  return (
    <section aria-labelledby="draw-title" className="rounded-2xl border border-slate-200 bg-white p-5 print:border-0 print:p-0" data-mystery-draw="">
      <h2 id="draw-title" className="m-0 text-lg font-bold">
        {`Your ${draw.boxName}`}
      </h2>
      <p className="m-0 mt-2 text-sm">
        {'You got '}
        <strong data-drawn="">{draw.productLabel}</strong>
        {draw.size && (
          <>
            {' in size '}
            <strong data-drawn-size="">{draw.size}</strong>
          </>
        )}
        {`, drawn ${formatDateTime(draw.drawnAt)}.`}
      </p>
      <dl className="m-0 mt-3 grid gap-1 text-sm">
        <dt className="font-semibold">Commitment (SHA-256 of the seed), published {formatDateTime(draw.committedAt)}</dt>
        <dd className="m-0">
          <code className={code} data-seed-hash="">
            {draw.seedHash}
          </code>
        </dd>
        <dt className="mt-2 font-semibold">Seed, revealed for this draw</dt>
        <dd className="m-0">
          {draw.seed ? (
            <code className={code} data-seed="">
              {draw.seed}
            </code>
          ) : (
            <span className="text-slate-600">Shown once your payment is confirmed.</span>
          )}
        </dd>
      </dl>
      <h3 className="m-0 mt-4 text-base font-bold">{draw.size ? `What was in the box in size ${draw.size}` : 'What was in the box'}</h3>
      <table className="mt-2 w-full border-collapse text-sm">
        <thead>
          <tr className="text-left text-slate-600">
            <th className="py-1 font-semibold">{draw.stockBy === 'variant' ? 'Size id' : 'Product id'}</th>
            <th className="py-1 font-semibold">Item</th>
            <th className="py-1 text-right font-semibold">Tickets</th>
            <th className="py-1 text-right font-semibold">Chance</th>
          </tr>
        </thead>
        <tbody>
          {ticketRanges(draw.stock).map((line) => (
            <tr key={line.id} className="border-t border-slate-100" data-drawn-item={line.id === draw.drawnId ? '' : undefined}>
              <td className="py-1">{`#${line.id}`}</td>
              <td className="py-1 break-words">{line.id === draw.drawnId ? <strong>{line.label}</strong> : line.label}</td>
              <td className="py-1 text-right tabular-nums" data-tickets={line.id}>
                {line.first === line.last ? String(line.first) : `${line.first}-${line.last}`}
              </td>
              <td className="py-1 text-right">{chanceText(line.units, total)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <details className="mt-4 text-sm" data-draw-check="">
        <summary className="cursor-pointer font-semibold text-sea-dark">How to check this draw</summary>
        <HowToCheck draw={draw} total={total} orderId={orderId} />
      </details>
    </section>
  );
}

/** Each item's tickets: the units, counted through the items in order from 0. */
function ticketRanges(stock: OrderDrawView['stock']) {
  let next = 0;
  return stock.map((line) => {
    const first = next;
    next += line.units;
    return { ...line, first, last: next - 1 };
  });
}

/**
 * Every step with a one-line command that any Mac or Linux machine runs as it is (python3's own
 * hashlib and hmac), and what it must print; before the seed is revealed, the same commands with
 * SEED in its place.
 */
function HowToCheck({ draw, total, orderId }: { draw: OrderDrawView; total: number; orderId: number }) {
  const seed = draw.seed ?? 'SEED';
  const roll = draw.roll;
  const message = roll?.message ?? String(orderId);
  return (
    <>
      {!roll && <p className="m-0 mt-2 text-slate-600">The seed is revealed, and each step filled in, once your payment is confirmed.</p>}
      <p className="m-0 mt-2 text-slate-600">Paste each line into a terminal (Terminal on a Mac, any Linux shell).</p>
      <ol className="m-0 mt-2 grid gap-3 pl-5">
        <li data-check-step="1">
          {'The seed is the one committed to before you bought: this prints the commitment above.'}
          <code className={`${code} mt-1 block`}>{`python3 -c "import hashlib; print(hashlib.sha256(bytes.fromhex('${seed}')).hexdigest())"`}</code>
        </li>
        <li data-check-step="2">
          {`HMAC-SHA256 of your order number (${message}), with the seed as the key: this prints a 64-digit hex number.`}
          <code className={`${code} mt-1 block`}>
            {`python3 -c "import hmac, hashlib; print(hmac.new(bytes.fromhex('${seed}'), b'${message}', hashlib.sha256).hexdigest())"`}
          </code>
          {roll && (
            <span className="mt-1 block">
              {'It prints '}
              <code className={code} data-hmac="">
                {roll.hmac}
              </code>
            </span>
          )}
        </li>
        <li data-check-step="3">
          {`That number divided by ${total}, the units in the box${draw.size ? ` in size ${draw.size}` : ''}: the remainder is your ticket, from 0 to ${total - 1}.`}
          <code className={`${code} mt-1 block`}>{`python3 -c "print(0x${roll?.hmac ?? 'HMAC'} % ${total})"`}</code>
          {roll && (
            <span className="mt-1 block">
              {'It prints '}
              <strong data-ticket="">{roll.ticket}</strong>
            </span>
          )}
        </li>
        <li data-check-step="4">
          {roll
            ? `Find ticket ${roll.ticket} in the Tickets column above: it is ${draw.productLabel}, the item you got.`
            : 'Find your ticket in the Tickets column above: that row is the item you got.'}
        </li>
      </ol>
      {roll?.message.includes(':') && (
        <p className="m-0 mt-2 text-slate-600">
          {`The first number (message ${message.split(':')[0]}) fell in the few at the very top that would make some tickets likelier than others, so the draw rolled again with ${message}.`}
        </p>
      )}
    </>
  );
}
