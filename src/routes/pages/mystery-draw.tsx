import { formatDateTime } from '../../components/format.ts';
import type { OrderDrawView } from '../../domain/promotions/mystery-audit.ts';

/*
 * A mystery box's draw where its buyer reads it: the order page. Everything needed to check the
 * draw without trusting the store: the hash that was public before the purchase, the seed (used
 * for this draw only, so revealing it tells nothing about the next one), the stock drawn from,
 * and the steps with a command any machine with openssl can run.
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
      <h3 className="m-0 mt-4 text-base font-bold">What was in the box</h3>
      <table className="mt-2 w-full border-collapse text-sm">
        <thead>
          <tr className="text-left text-slate-600">
            <th className="py-1 font-semibold">Product id</th>
            <th className="py-1 font-semibold">Item</th>
            <th className="py-1 text-right font-semibold">Chance</th>
          </tr>
        </thead>
        <tbody>
          {draw.stock.map((line) => (
            <tr key={line.productId} className="border-t border-slate-100" data-drawn-item={line.productId === draw.productId ? '' : undefined}>
              <td className="py-1">{`#${line.productId}`}</td>
              <td className="py-1 break-words">{line.productId === draw.productId ? <strong>{line.label}</strong> : line.label}</td>
              <td className="py-1 text-right">{chanceText(line.units, total)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <details className="mt-4 text-sm">
        <summary className="cursor-pointer font-semibold text-sea-dark">How to check this draw</summary>
        <ol className="m-0 mt-2 grid gap-2 pl-5">
          <li>
            {'The seed matches the commitment: '}
            <code className={code}>{`echo ${draw.seed ?? 'SEED'} | xxd -r -p | sha256sum`}</code>
            {' prints the commitment above.'}
          </li>
          <li>
            {'Take the HMAC-SHA256 of the order number with the seed as the key: '}
            <code className={code}>{`echo -n ${orderId} | openssl dgst -sha256 -mac HMAC -macopt hexkey:${draw.seed ?? 'SEED'}`}</code>
          </li>
          <li>
            {`Read it as one 256-bit number and take the remainder after dividing by ${total}, the units in the box: that is your ticket, from 0 to ${total - 1}.`}
          </li>
          <li>Count through the items above in order, each taking as many tickets as its units: the item your ticket falls on is yours.</li>
        </ol>
        <p className="m-0 mt-2 text-slate-600">
          {'The store checks every draw the same way with '}
          <code className={code}>{draw.command}</code>.
        </p>
      </details>
    </section>
  );
}
