import type { AppContext } from '../../http/context.ts';
import { currentPath, renderPage } from '../../http/render.tsx';

/** Any unknown path: the spec's exact texts, status 404. API paths answer JSON instead. */
export function notFound(c: AppContext) {
  if (c.req.path.startsWith('/api/')) return c.json({ message: 'Not found' }, 404);
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return c.text('Not found', 404);
  return renderPage(
    c,
    { title: 'Page Not Found', path: currentPath(c), noindex: true },
    <div className="mx-auto max-w-md pt-16 text-center">
      <div className="rounded-2xl bg-white p-8 border border-slate-200 shadow-sm">
        <h1 className="m-0 text-2xl font-extrabold text-ink">404 Page Not Found</h1>
        <p className="mt-3 mb-6 text-slate-600">Did you forget to add the page to the router?</p>
        <a href="/" className="inline-block rounded-full bg-ink px-5 py-2.5 text-sm font-bold text-white no-underline">
          Back to Home
        </a>
      </div>
    </div>,
    { status: 404 },
  );
}
