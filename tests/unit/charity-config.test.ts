import { describe, expect, test } from 'bun:test';
import { ConfigError, DEMO_CHARITY, loadConfig } from '../../src/config.ts';

/* Issue 29: the charity partner 'Donate this' buys for comes from CHARITY_NAME, CHARITY_ADDRESS and CHARITY_ABOUT. */

const production = {
  NODE_ENV: 'production',
  SEED_KEY: 'ab'.repeat(32),
  PUBLIC_URL: 'http://shop.example.com',
  ADMIN_PASSWORD: 'admin-secret',
  ADMIN_PIN: '246810',
  PAYMENTS: 'test',
  MAIL: 'off',
};

describe('the charity partner', () => {
  test('development and tests get the demo charity in Laguna Beach', () => {
    expect(loadConfig({}).charity).toEqual(DEMO_CHARITY);
    expect(DEMO_CHARITY.address).toContain('Laguna Beach, CA 92651');
  });

  test('production names no charity it was not told about: no donations', () => {
    expect(loadConfig(production).charity).toBeNull();
  });

  test('the three settings name the partner, trimmed', () => {
    const config = loadConfig({
      ...production,
      CHARITY_NAME: ' Friends of the Library ',
      CHARITY_ADDRESS: '363 Glenneyre St, Laguna Beach, CA 92651',
      CHARITY_ABOUT: 'Books for every school in town.',
    });
    expect(config.charity).toEqual({
      name: 'Friends of the Library',
      address: '363 Glenneyre St, Laguna Beach, CA 92651',
      about: 'Books for every school in town.',
    });
  });

  test('a name without an address is refused at start-up, saying which setting is missing', () => {
    expect(() => loadConfig({ ...production, CHARITY_NAME: 'Friends of the Library' })).toThrow(ConfigError);
    expect(() => loadConfig({ CHARITY_NAME: 'Friends of the Library' })).toThrow(/CHARITY_ADDRESS: CHARITY_ADDRESS is required with CHARITY_NAME/);
  });
});
