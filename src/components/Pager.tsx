/** The pages of a long list: server-rendered links to the previous and next page (?page=N). */

/** The most pages a list link may ask for: past it, the last real page is long gone anyway. */
export const MAX_PAGE = 500;

/** ?page=N as a page number: 1 for anything that is not a whole number from 1 to MAX_PAGE. */
export function parsePage(value: string | undefined): number {
  if (!value || !/^[1-9]\d{0,2}$/.test(value)) return 1;
  return Math.min(Number(value), MAX_PAGE);
}

/** `base` ends in '?' or '&', so the page parameter can follow it. */
export function Pager({ base, page, hasNext, label }: { base: string; page: number; hasNext: boolean; label: string }) {
  if (page <= 1 && !hasNext) return null;
  const href = (n: number) => (n === 1 ? base.slice(0, -1) : `${base}page=${n}`);
  const link = 'rounded-full border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-ink no-underline hover:bg-slate-50';
  return (
    <nav aria-label={`${label}: pages`} data-pager="" className="mt-4 flex items-center justify-between gap-3">
      {page > 1 ? (
        <a href={href(page - 1)} rel="prev" className={link}>
          Previous page
        </a>
      ) : (
        <span />
      )}
      <span className="text-sm text-slate-600">{`Page ${page}`}</span>
      {hasNext ? (
        <a href={href(page + 1)} rel="next" className={link}>
          Next page
        </a>
      ) : (
        <span />
      )}
    </nav>
  );
}
