/*
 * Answers made before the router (a kept page, /ping) can carry the security headers already:
 * their headers are put together once per kept answer, and each hit's Response copies them in
 * one go instead of setting a dozen headers one by one (the largest cost left on a hit,
 * bench/hit-costs.ts). observeRequests (observe.ts) then sets only the request id on them.
 * The headers are the ones security.ts gives that path and type, as for any other answer.
 */

/** security.ts's securityHeaders(config): sets them on `target` (a promise only while they are first computed). */
export type Sealer = (target: Headers, path: string, type: string | null) => void | Promise<void>;

const sealed = new WeakSet<Response>();

/** Whether the answer's headers already hold the security headers (observe.ts leaves them). */
export function isSealed(response: Response): boolean {
  return sealed.has(response);
}

/** A Response whose headers already hold the security headers: `headers` from sealedHeaders. */
export function sealedResponse(body: BodyInit | null, status: number, headers: Headers): Response {
  const response = new Response(body, { status, headers });
  sealed.add(response);
  return response;
}

/**
 * A copy of `headers` with the security headers of `path` set, or null while they are still
 * being computed (the first answer of the process): that answer is then sealed as any other.
 */
export function sealedHeaders(headers: HeadersInit, path: string, seal: Sealer): Headers | null {
  const copy = new Headers(headers);
  const applying = seal(copy, path, copy.get('content-type'));
  if (applying) {
    // Computed now for the next answer; this one goes the ordinary way.
    applying.catch(() => {});
    return null;
  }
  return copy;
}
