import type { Context, MiddlewareHandler } from 'hono';
import { csrf } from 'hono/csrf';
import { secureHeaders } from 'hono/secure-headers';
import type { Config } from '../config.ts';
import type { AppEnv } from './context.ts';

const SQUARE_ORIGINS = {
  sandbox: ['https://sandbox.web.squarecdn.com', 'https://pci-connect.squareupsandbox.com', 'https://o160250.ingest.sentry.io'],
  production: ['https://web.squarecdn.com', 'https://pci-connect.squareup.com', 'https://o160250.ingest.sentry.io'],
};

/**
 * The headers that mean something on any answer (a script, a stylesheet, JSON, an image, a
 * download): what it is (nosniff), who may embed or read it (CORP, frame-ancestors and XFO),
 * https only (HSTS), the referrer its own fetches send, and the CSP. The others govern a document
 * a browser renders (its window group, its device features, the legacy IE and Flash switches)
 * and do nothing on anything else, so only documents (HTML, and SVG, which a tab renders as one)
 * pay for them (docs/decisions.md).
 */
const ON_EVERY_ANSWER = new Set([
  'content-security-policy',
  'cross-origin-resource-policy',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-frame-options',
]);

/**
 * Secure headers with a CSP that lets in Square's script origins only when Square is the gateway,
 * computed once; setting them (names and values as they are stored, in flat arrays) is all an
 * answer pays. Applied by observeRequests once the answer exists.
 */
export function securityHeaders(config: Config): (target: Headers, path: string, type: string | null) => void | Promise<void> {
  let everyAnswer: string[] | null = null;
  let documentsToo: string[] = [];
  const apply = (target: Headers, path: string, type: string | null) => {
    const fixed = everyAnswer!;
    for (let index = 0; index < fixed.length; index += 2) target.set(fixed[index]!, fixed[index + 1]!);
    if (type && (type.startsWith('text/html') || type.startsWith('image/svg+xml'))) {
      for (let index = 0; index < documentsToo.length; index += 2) target.set(documentsToo[index]!, documentsToo[index + 1]!);
    }
    // A page whose URL holds a single-use link never tells another site where it came from ('same-origin', not 'no-referrer': that would send Origin: null and fail the CSRF check of its own form).
    if (path === '/auth/reset' || path === '/auth/confirm-email' || path === '/auth/unlock') {
      target.set('Referrer-Policy', 'same-origin');
      target.set('Cache-Control', 'no-store');
    }
  };
  return (target, path, type) => {
    if (everyAnswer) return apply(target, path, type);
    return fixedSecureHeaders(config).then((fixed) => {
      everyAnswer = fixed.filter(([name]) => ON_EVERY_ANSWER.has(name)).flat();
      documentsToo = fixed.filter(([name]) => !ON_EVERY_ANSWER.has(name)).flat();
      apply(target, path, type);
    });
  };
}

/** The headers hono's secureHeaders sets with the store's options (none depends on the request). */
async function fixedSecureHeaders(config: Config): Promise<[string, string][]> {
  const context = { res: new Response(null) };
  await secureHeaderOptions(config)(context as never, async () => {});
  return [...context.res.headers];
}

function secureHeaderOptions(config: Config): MiddlewareHandler<AppEnv> {
  const square = config.payments === 'square' ? SQUARE_ORIGINS[config.square.environment] : [];
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...square],
      styleSrc: ["'self'", "'unsafe-inline'", ...square],
      imgSrc: ["'self'", 'data:', 'https:'],
      fontSrc: ["'self'", ...square],
      connectSrc: ["'self'", ...square],
      frameSrc: square.length ? square : ["'none'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    // The header's back button reads the Referer of same-site navigations.
    referrerPolicy: 'strict-origin-when-cross-origin',
    crossOriginEmbedderPolicy: false,
    xFrameOptions: 'DENY',
    // Nothing here uses the camera, microphone, location or other device features; Square's card form needs payment.
    permissionsPolicy: {
      camera: [],
      microphone: [],
      geolocation: [],
      usb: [],
      serial: [],
      bluetooth: [],
      midi: [],
      magnetometer: [],
      gyroscope: [],
      accelerometer: [],
      payment: ['self', ...square],
    },
  });
}

const PERSONAL_API = /^\/api\/(user|cart|checkout|orders|notifications|admin)(\/|$)/;

/**
 * JSON that belongs to one person (anything answered to a signed-in user, and the personal
 * calls even when refused) is never kept by a browser or a shared cache.
 */
export const personalJsonIsPrivate: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.get('user') || PERSONAL_API.test(c.req.path)) c.header('Cache-Control', 'private, no-store');
};

/** The store's own origin, from its PUBLIC_URL, worked out once per configuration. */
const publicOrigins = new WeakMap<Config, string>();
function publicOriginOf(config: Config): string {
  let origin = publicOrigins.get(config);
  if (origin === undefined) {
    origin = new URL(config.publicUrl).origin;
    publicOrigins.set(config, origin);
  }
  return origin;
}

const allowedOrigin = (origin: string, c: Context<AppEnv>) => origin === publicOriginOf(c.env.deps.config) || origin === new URL(c.req.url).origin;
const formCheck = csrf({ origin: (origin, c) => allowedOrigin(origin, c as Context<AppEnv>) });

/**
 * CSRF: Hono's csrf() refuses cross-site form posts; on top of it, any state-changing
 * request that says it comes from another origin or site is refused, whatever its body type.
 * One handler for every app (the configuration comes with the request), so apps share their
 * routes (shared-trie-router.ts).
 */
export const csrfProtection: MiddlewareHandler<AppEnv> = async (c, next) => {
  // A safe method changes nothing: neither check has anything to refuse.
  if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS') return next();
  const origin = c.req.header('origin');
  const site = c.req.header('sec-fetch-site');
  if ((origin && origin !== 'null' && !allowedOrigin(origin, c)) || origin === 'null' || site === 'cross-site') {
    return c.json({ message: 'Cross-site request refused.' }, 403);
  }
  return formCheck(c, next);
};
