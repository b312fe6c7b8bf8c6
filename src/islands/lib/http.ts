/**
 * A failed API call: the server's message (its `{ message, fields, code }` body) or 'status: text';
 * `code` names the refusal when the island must act on it (e.g. PAYMENT_METHOD_REQUIRED).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: Record<string, string> = {},
    readonly code?: string,
  ) {
    super(message);
  }
}

export async function apiRequest<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'include',
    headers: body === undefined ? { Accept: 'application/json' } : { 'Content-Type': 'application/json', Accept: 'application/json' },
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
    const payload = (data ?? {}) as { message?: string; fields?: Record<string, string>; code?: string };
    const message = payload.message ?? `${response.status}: ${text || response.statusText}`;
    throw new ApiError(response.status, message, payload.fields, payload.code);
  }
  return data as T;
}
