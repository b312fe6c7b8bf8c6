import { AsyncLocalStorage } from 'node:async_hooks';

/*
 * What a log line written deep in the domain (a gateway call) knows about the request it
 * serves: the request id and the signed-in user, without passing them through every call.
 * Set by the HTTP layer (http/observe.ts) for the requests that can reach the gateway only:
 * carrying a context through every await is not free, and /ping and the visitor pages never
 * pay for it.
 */

export interface LogScope {
  reqId: string;
  /** Read when a line is written: the session is loaded after the scope begins. */
  userId(): number | null;
}

const scope = new AsyncLocalStorage<LogScope>();

export function inLogScope<T>(given: LogScope, run: () => T): T {
  return scope.run(given, run);
}

/** The request's fields for a log line; none outside a request (a job). */
export function logScopeFields(): { reqId?: string; userId?: number } {
  const current = scope.getStore();
  if (!current) return {};
  const userId = current.userId();
  return userId === null ? { reqId: current.reqId } : { reqId: current.reqId, userId };
}
