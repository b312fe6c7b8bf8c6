import { renderToStaticMarkup } from 'react-dom/server';
import type { AppContext, AppEnv } from '../../http/context.ts';

/**
 * The page a visitor sees when a request failed on our side. It reads nothing from the
 * database (that may be what failed) and shows the request id, so a shopper can quote it and
 * the operator finds the request's log lines.
 */
export function serverErrorPage<E extends AppEnv>(
  c: AppContext<E>,
  { status = 500, message = 'Something went wrong on our side. Please try again.' }: { status?: 500 | 503; message?: string } = {},
): Response {
  const { config, manifest } = c.env.deps;
  const requestId = c.env.requestId;
  const html = renderToStaticMarkup(
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{`Something went wrong | ${config.siteName}`}</title>
        <link rel="stylesheet" href={manifest.css} />
      </head>
      <body className="min-h-screen bg-sand text-ink font-sans antialiased">
        <main className="mx-auto max-w-md px-4 pt-16 text-center">
          <div className="rounded-2xl bg-white p-8 border border-slate-200 shadow-sm">
            <h1 className="m-0 text-2xl font-extrabold">Something went wrong</h1>
            <p className="mt-3 text-slate-600">{message}</p>
            <p className="mt-3 mb-6 text-sm text-slate-600">
              If it keeps happening, tell us this reference: <code className="font-mono text-ink">{requestId}</code>
            </p>
            <a href="/" className="inline-block rounded-full bg-ink px-5 py-2.5 text-sm font-bold text-white no-underline">
              Back to Home
            </a>
          </div>
        </main>
      </body>
    </html>,
  );
  return c.html(`<!doctype html>${html}`, status, { 'Cache-Control': 'no-store' });
}
