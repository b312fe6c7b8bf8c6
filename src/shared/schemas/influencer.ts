import * as z from 'zod/mini';
import { parseFollowers } from '../format.ts';
import { formFile, formText } from './fields.ts';

/*
 * The admin's influencer form (POST /admin/influencers/new and /admin/influencers/{id}): the
 * form post as it arrives (`influencerFormPost`), then the rules of its fields
 * (`influencerInput`), whose messages the form shows under each field.
 */

export const PLATFORMS = ['instagram', 'tiktok', 'youtube', 'twitter'] as const;

/** What the metrics read (parseFollowers), capped so a typo cannot make a giant the simulation believes. */
const FOLLOWERS_TEXT = /^\d+(\.\d+)?[KMB]?$/i;
const MOST_FOLLOWERS = 10e9;
const FOLLOWERS_HINT = 'Followers must be a number with an optional K, M or B, such as 2.4M (at most 10B).';
const HANDLE = /^@[A-Za-z0-9._]{2,30}$/;
const NAME_RULE = 'Name must be 2 to 60 characters.';
const HANDLE_RULE = 'Handle must be @ followed by 2 to 30 letters, digits, dots or underscores.';
const RATE_RULE = 'Engagement rate must be a number from 0.1 to 20 (percent).';
const PLATFORMS_RULE = 'Give the followers of at least one platform.';

const followersKey = (platform: (typeof PLATFORMS)[number]) => `followers.${platform}` as const;

/** The form post: text fields and an optional avatar file; a repeated field or a file where text belongs is refused. */
export const influencerFormPost = z.object({
  name: formText(200),
  handle: formText(200),
  category: formText(200),
  engagementRate: formText(40),
  ...Object.fromEntries(PLATFORMS.map((platform) => [followersKey(platform), formText(40)])),
  avatar: formFile,
});

const text = (max: number, message: string) => z._default(z.string({ error: message }), '').check(z.trim(), z.maxLength(max, message));

const followersText = z._default(z.string({ error: FOLLOWERS_HINT }), '').check(
  z.trim(),
  z.refine((value) => {
    if (value === '') return true;
    const count = value.length <= 12 && FOLLOWERS_TEXT.test(value) ? parseFollowers(value) : 0;
    return count >= 1 && count <= MOST_FOLLOWERS;
  }, FOLLOWERS_HINT),
);

/** The rules of an influencer's fields; the result is what is stored. */
export const influencerInput = z.pipe(
  z
    .object({
      name: text(60, NAME_RULE).check(z.minLength(2, NAME_RULE)),
      handle: text(200, HANDLE_RULE).check(
        z.overwrite((handle) => (handle && !handle.startsWith('@') ? `@${handle}` : handle)),
        z.regex(HANDLE, HANDLE_RULE),
      ),
      category: text(40, 'Category must be at most 40 characters.'),
      engagementRate: text(40, RATE_RULE).check(
        z.regex(/^\d{1,2}(\.\d{1,2})?$/, RATE_RULE),
        z.refine((rate) => Number(rate) >= 0.1 && Number(rate) <= 20, RATE_RULE),
      ),
      ...Object.fromEntries(PLATFORMS.map((platform) => [followersKey(platform), followersText])),
    })
    .check(
      z.refine((fields) => PLATFORMS.some((platform) => (fields as Record<string, string>)[followersKey(platform)] !== ''), {
        message: PLATFORMS_RULE,
        path: ['platforms'],
        // Only when no platform's followers were refused already: one message is enough.
        when: (payload) => !payload.issues.some((issue) => String(issue.path?.[0] ?? '').startsWith('followers.')),
      }),
    ),
  z.transform((fields) => {
    const values = fields as Record<string, string>;
    const platforms: Record<string, string> = {};
    for (const platform of PLATFORMS) if (values[followersKey(platform)]) platforms[platform] = values[followersKey(platform)]!.toUpperCase();
    return { name: fields.name, handle: fields.handle, category: fields.category, engagementRate: Number(fields.engagementRate), platforms };
  }),
);

export type InfluencerInput = z.output<typeof influencerInput>;
