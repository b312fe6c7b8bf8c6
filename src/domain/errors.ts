import type { core } from 'zod/mini';

type ZodError = core.$ZodError;
import { fieldErrorsOf } from '../shared/schemas/field-errors.ts';

/** A rule said no: carries the HTTP status and the message the user reads. */
export class DomainError extends Error {
  constructor(
    readonly status: 400 | 401 | 402 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 502,
    message: string,
    readonly fields?: Record<string, string>,
    /** More the client may use, such as the recomputed totals of a 409. */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/**
 * The refusal of a second checkout while one is under way, by an order (orders/orders.ts) or by a
 * prize's own claim (games/prizes.ts): kept here, below both areas, so neither imports the other for it.
 */
export const CHECKOUT_IN_PROGRESS = 'A checkout is already in progress.';

export function validationError(error: ZodError): DomainError {
  const fields = fieldErrorsOf(error);
  const first = Object.values(fields)[0] ?? 'Invalid input';
  return new DomainError(400, first, fields);
}
