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
