import { zValidator } from '@hono/zod-validator';
import type { Context } from 'hono';
import type { core } from 'zod/mini';
import { DomainError, validationError } from '../domain/errors.ts';
import { idParam } from '../shared/schemas/fields.ts';
import { setFlash } from './flash.ts';

/*
 * The one way a route reads its input: a named schema from src/shared/schemas applied by
 * @hono/zod-validator before the handler runs. A refused body is a 400 { message, fields }
 * (the first field's message, then every field's) and the handler never runs, so nothing
 * changes. Unknown keys are dropped by the schemas (zod's default object), never stored.
 */

const JSON_MEDIA = /^application\/([\w.-]+\+)?json$/i;

type Outcome = { success: true } | { success: false; error: core.$ZodError };

function refuseInvalid(result: Outcome & { target: string; data: unknown }, c: Context, formAt?: string): void {
  if (result.target === 'json') {
    const media = (c.req.header('content-type') ?? '').split(';')[0]!.trim();
    if (!JSON_MEDIA.test(media)) throw new DomainError(415, 'Send the request body as JSON (Content-Type: application/json).');
    const body = result.data;
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new DomainError(400, 'Send a JSON object.');
  }
  if (result.success) return;
  const error = validationError(result.error);
  if (!formAt || !error.fields) throw error;
  // The island shows each message next to its field, named as in the form, not as in the body.
  const prefix = `${formAt}.`;
  const fields = Object.fromEntries(Object.entries(error.fields).map(([key, message]) => [key.startsWith(prefix) ? key.slice(prefix.length) : key, message]));
  throw new DomainError(400, error.message, fields);
}

/**
 * A JSON body checked by `schema`; read it with `c.req.valid('json')`. `formAt` names the key
 * that carries a form's fields (e.g. 'customer'), whose errors are reported by field name.
 */
export const jsonBody = <T extends core.$ZodType>(schema: T, options: { formAt?: string } = {}) =>
  zValidator('json', schema, (result, c) => refuseInvalid(result, c, options.formAt));

/** A query string checked by `schema`; read it with `c.req.valid('query')`. */
export const queryOf = <T extends core.$ZodType>(schema: T) => zValidator('query', schema, (result, c) => refuseInvalid(result, c));

/**
 * A form post (urlencoded or multipart) checked by `schema`; read it with `c.req.valid('form')`.
 * A page form answers a refusal its own way (`refused`: usually a flash and a redirect back);
 * without it the refusal is the JSON 400.
 */
export const formBody = <T extends core.$ZodType>(schema: T, refused?: (c: Context, error: DomainError) => Response) =>
  zValidator('form', schema, (result, c) => {
    if (result.success) return;
    const error = validationError(result.error);
    if (refused) return refused(c, error);
    throw error;
  });

/** The `:id` of the path as a number; anything but a plain positive decimal is '{what} not found'. */
export const idFrom = (what: string) =>
  zValidator('param', idParam, (result) => {
    if (!result.success) throw new DomainError(404, `${what} not found`);
  });

/** The validated `:id` (call only on a route that used idFrom). */
export function pathId(c: Context): number {
  return Number(c.req.param('id'));
}

/** A page form whose refusal is a toast on the page it came back to. */
export const validForm = <T extends core.$ZodType>(schema: T, title: string, backTo: (c: Context) => string) =>
  formBody(schema, (c, error) => {
    setFlash(c, { title, description: error.message, variant: 'destructive' });
    return c.redirect(backTo(c), 303);
  });
