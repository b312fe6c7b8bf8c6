/**
 * A failed API call: the server's message (its `{ message, fields, code }` body) or 'status: text';
 * `code` names the refusal when the island must act on it (e.g. PAYMENT_METHOD_REQUIRED), and
 * `data` is the whole body (a money refusal names its `orderId` there).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: Record<string, string> = {},
    readonly code?: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface RequestOptions {
  /** Sent as `Idempotency-Key`: every try of one money attempt carries the same one (./money.ts). */
  idempotencyKey?: string;
}

export async function apiRequest<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> =
    body === undefined ? { Accept: 'application/json' } : { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
  const response = await fetch(path, {
    method,
    credentials: 'include',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!response.ok) {
    const payload = (data && typeof data === 'object' ? data : {}) as { message?: string; fields?: Record<string, string>; code?: string };
    const message = payload.message ?? `${response.status}: ${text || response.statusText}`;
    throw new ApiError(response.status, message, payload.fields, payload.code, payload as Record<string, unknown>);
  }
  return data as T;
}
