import type { core } from 'zod/mini';

type ZodError = core.$ZodError;

/** The first message per field, keyed by the dotted field path (browser-safe). */
export function fieldErrorsOf(error: ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    if (!(key in fields)) fields[key] = issue.message;
  }
  return fields;
}
