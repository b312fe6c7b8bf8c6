import { ENTRY_FEE_CENTS, INFLUENCERS_PER_PLAY } from '../../../domain/games/entry.ts';
import {
  DAY_MS,
  FEED_SETTLE_DEADLINE_MS,
  GAME_LENGTH_MS,
  HOUR_MS,
  MINUTE_MS,
  PENDING_PLAY_MS,
  WAITING_GAME_LIFETIME_MS,
} from '../../../domain/games/schedule.ts';
import { DEFAULT_DAILY_ENTRY_LIMIT } from '../../../domain/accounts/responsible-play.ts';
import { formatCents } from '../../../shared/pricing.ts';
import { Section } from './shared.tsx';

/*
 * /rules: the official rules a player accepts before a first entry. Every number comes from the
 * rules in code; the scoring steps are those of docs/fairness.md (and of games/simulation.ts).
 */

const entry = formatCents(ENTRY_FEE_CENTS).replace('.00', '');

const algorithm = `form = 0.5 + (first big-endian 32-bit word of HMAC-SHA256(seed bytes, "{influencerId}:form")) / 2^32
rate = engagementRate × form        (once per influencer and game)

minuteIndex = floor(minuteStartMs / 60000)
d   = HMAC-SHA256(key = the 32 seed bytes, message = "{influencerId}:{platform}:{minuteIndex}")
u1, u2, u3 = the first three big-endian 32-bit words of d, each / 2^32
followers  = round(base × (1 + ((minuteIndex mod 525600) / 525600) × 0.1))
engagement = round(rate × (0.7 + 0.6·u1) × 100) / 100
growth     = round((0.02 + 0.2·u2) × (rate / 3) × 1000) / 1000
posts      = 1 if u3 < form/90, else 0
points     = round3(followers × growth / 100 / 1440 / 100 + engagement + 5·growth + 20·posts)`;

export function RulesPage({ dailyEntryLimit = DEFAULT_DAILY_ENTRY_LIMIT }: { dailyEntryLimit?: number }) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-8">
      <h1 className="m-0 text-2xl font-extrabold">Official game rules</h1>
      <p className="m-0 mt-2 text-slate-600">
        By entering a game you confirm that you are 18 or older and accept these rules. The store is in Laguna Beach, California.
      </p>

      <Section id="rules-entry" title="Entering">
        <p className="m-0">
          {`Each entry costs ${entry}: pick exactly ${INFLUENCERS_PER_PLAY} influencers, then pay. Your ${entry} is held on your card, not charged, when you join. A pick that is not paid within ${PENDING_PLAY_MS / MINUTE_MS} minutes lapses. One entry per player per game.`}
        </p>
        <p className="m-0">
          A game needs as many players as the product's price in whole dollars (at least 2) and takes exactly that many entries. Once it is full, the next
          player opens (or joins) the next game for that product.
        </p>
      </Section>

      <Section id="rules-time" title="When a game runs">
        <p className="m-0">{`A full game starts at the top of the next hour and lasts ${GAME_LENGTH_MS / HOUR_MS} hour. No entries are taken after it starts.`}</p>
      </Section>

      <Section id="rules-scoring" title="How scores are computed">
        <p className="m-0">
          {`Each influencer earns points minute by minute on every platform from four metrics: followers gained, engagement, growth and posts. A minute's points = followers × growth / 100 / 1440 / 100 + engagement + 5 × growth + 20 × posts. Your score is the sum of your ${INFLUENCERS_PER_PLAY} influencers' points over the game's hour.`}
        </p>
        <p className="m-0">
          <strong>Nobody can know the points in advance.</strong> When a game opens, the store draws a secret seed of 32 random bytes and publishes its SHA-256
          (the game's “seed hash”) at once. The metrics of each minute come from that seed:
        </p>
        <pre className="m-0 whitespace-pre-wrap break-words rounded-xl bg-slate-100 p-3 text-xs leading-relaxed text-ink">{algorithm}</pre>
        <p className="m-0">
          Here base is the platform's followers (K = thousand, M = million, B = billion) and engagementRate the influencer's rate, both frozen when the game
          starts; the form (0.5 to 1.5) makes each influencer's hour better or worse than usual; round3(x) = round(x × 1000) / 1000; every sum is kept to three
          decimals.
        </p>
        <p className="m-0">
          <strong>Anyone can check a result.</strong> When the game is over its seed is published on its page (/games/ID, linked from the scoreboard, the
          product page and your notifications): check that SHA-256 of the seed equals the seed hash shown before the game, then recompute every score with the
          steps above.
        </p>
      </Section>

      <Section id="rules-ties" title="Winning and ties">
        <p className="m-0">
          The highest score wins. A tie goes to the entry paid first. The winner may buy the product for $1 (it is added to their cart) or donate it to charity.
        </p>
      </Section>

      <Section id="rules-prizes" title="Your prize">
        <p className="m-0">
          A prize costs $1 plus 8% tax and is delivered by the store, free, within 2-3 hours, in ZIP 92651 (Laguna Beach) only. In a cart with other items,
          those items ship by the method you choose and the prize still travels free.
        </p>
        <p className="m-0">
          Removing the prize from your cart does not lose it: it waits on My Games, where you can claim it again or donate it. Its state is always shown there
          and on the game's page: to claim, in your cart, bought, delivered, donated, or returned to stock.
        </p>
        <p className="m-0">
          A prize nobody buys or donates is kept for 7 days after the game ends. A day before, you get a reminder by notification and e-mail; after 7 days it
          goes back to stock and you are told. A prize whose payment is in progress is never returned.
        </p>
      </Section>

      <Section id="rules-holds" title="When your card is charged or released">
        <p className="m-0">{`When a game is decided, every entry's ${entry} hold is charged, whether the player won or not.`}</p>
        <p className="m-0">
          {`Holds are released and nothing is charged when a game is canceled: it did not fill within ${WAITING_GAME_LIFETIME_MS / DAY_MS} days, the product sold out before the start, the store canceled it, or (with a live data feed) the metrics for the hour did not arrive within ${FEED_SETTLE_DEADLINE_MS / HOUR_MS} hours of its end.`}
        </p>
      </Section>

      <Section id="rules-refunds" title="Refunds">
        <p className="m-0">
          An entry fee that was charged for a game that ran is not refunded. If we charged you in error, or twice, contact us and we refund it in full. Prizes
          bought for $1 have the store's 30-day money-back guarantee.
        </p>
      </Section>

      <Section id="rules-responsible" title="Responsible play">
        <p className="m-0">
          {`Games are for adults (18 or older). Each player has a daily entry limit of ${dailyEntryLimit} entries in any 24 hours; you can lower it on your profile, at once, and raise it again up to that, 24 hours after you ask. You can also exclude yourself from games for 30 days, 6 months or permanently; an exclusion cannot be shortened, and it follows your e-mail, phone and card: a new account with any of them is excluded until the same day. An excluded player, or one at their limit, is never charged.`}
        </p>
        <p className="m-0">
          <a className="font-semibold text-sea-dark underline" href="/profile?tab=play">
            Set your limits on your profile
          </a>
        </p>
      </Section>
    </article>
  );
}
