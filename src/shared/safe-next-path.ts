/*
 * Where a redirect after sign-in, a form post or the PIN may go (browser-safe, so the AuthForm
 * island follows the same rule as the server). Only a path of this site: it starts with one
 * '/', has no backslash, no control character (tab, CR, LF, NUL...) and no '//' anywhere, and
 * none of these hidden behind percent-encoding (decoded repeatedly until it stops changing).
 * Browsers drop tabs and newlines and read '\' as '/', which is how '/%09/evil.example' and
 * '/\evil.example' become another origin. Anything else becomes '/'.
 */

const MAX_LENGTH = 2000;

function decodedFully(value: string): string | null {
  let current = value;
  for (let round = 0; round < 5; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) return current;
    current = next;
  }
  return null;
}

export function safeNextPath(value: string | null | undefined): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_LENGTH) return '/';
  const decoded = decodedFully(value);
  if (decoded === null) return '/';
  for (const form of [value, decoded]) {
    if (!form.startsWith('/') || form.includes('//') || form.includes('\\')) return '/';
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses.
    if (/[\u0000-\u001f\u007f]/.test(form)) return '/';
  }
  return value;
}
