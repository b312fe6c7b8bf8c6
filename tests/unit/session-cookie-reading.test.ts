import { describe, expect, test } from 'bun:test';
import { parse } from 'hono/utils/cookie';
import { onlySessionToken } from '../../src/http/page-cache-signed-in.ts';

/*
 * A signed-in cache hit reads the Cookie header by hand (issue 35): it must find the session
 * token exactly when Hono's parse finds it and no other cookie of the store is sent; anything
 * else is left to the route (null), which reads the cookies with Hono.
 */

const TOKEN = 'abcdefghijklmnopqrstuvwxyz234567';

describe('the session token of a Cookie header, for a hit before the router', () => {
  test('is found among other sites’ cookies, whatever the spacing', () => {
    for (const header of [
      `csa_session=${TOKEN}`,
      `_ga=GA1.2.3; csa_session=${TOKEN}`,
      `csa_session=${TOKEN}; theme=dark`,
      `a=1;csa_session=${TOKEN};b=2`,
      ` \tcsa_session = ${TOKEN} ;x=csa_cart`,
      `other=csa_flash; csa_session=${TOKEN}`,
    ]) {
      expect({ header, token: onlySessionToken(header) }).toEqual({ header, token: TOKEN });
      expect(parse(header).csa_session).toBe(TOKEN);
    }
  });

  test('is none when the store sends another cookie, or none, or the session twice', () => {
    for (const header of [
      null,
      undefined,
      '',
      'theme=dark',
      `csa_session=${TOKEN}; csa_cart=xyz`,
      `csa_flash=%7B%7D; csa_session=${TOKEN}`,
      `csa_session=${TOKEN}; csa_session=${TOKEN}`,
      `csa_sessionx=${TOKEN}`,
      'csa_session',
    ]) {
      expect({ header, token: onlySessionToken(header) }).toEqual({ header, token: null });
    }
  });

  test('never differs from Hono’s reading when it finds one', () => {
    // A quoted or encoded value is given as sent: it is no token's shape, so the route decides.
    for (const header of [`csa_session="${TOKEN}"`, 'csa_session=a%20b', `csa_session=${TOKEN}=`]) {
      const mine = onlySessionToken(header);
      expect(mine === null || mine === parse(header).csa_session || !/^[a-z2-7]{32}$/.test(mine)).toBe(true);
    }
  });
});
