import { DomainError } from '../domain/errors.ts';
import type { AppContext } from './context.ts';

/** The request's JSON body; a clear 4xx when it is not JSON. */
export async function readJson(c: AppContext): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  if (!type.toLowerCase().includes('application/json')) {
    throw new DomainError(415, 'Send the request body as JSON (Content-Type: application/json).');
  }
  try {
    return await c.req.json();
  } catch {
    throw new DomainError(400, 'The request body is not valid JSON.');
  }
}

/** The request's JSON body, which must be an object; anything else is a 400. */
export async function jsonObject(c: AppContext): Promise<Record<string, unknown>> {
  const body = await readJson(c);
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new DomainError(400, 'Send a JSON object.');
  return body as Record<string, unknown>;
}
