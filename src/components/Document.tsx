import type { ReactNode } from 'react';
import { Cached } from './Cached.tsx';
import { serializeProps } from './Island.tsx';
import { useRenderState } from './render-context.ts';

export const DEFAULT_DESCRIPTION = 'The Competitive Shopping Association. Discover premium designer products.';

/** A raster picture for link previews: crawlers show neither SVG nor an image of unknown size. */
export interface ShareImage {
  /** Absolute, or a path on this site. */
  url: string;
  width: number;
  height: number;
  type: 'image/png' | 'image/jpeg';
  alt: string;
}

export const DEFAULT_SHARE_IMAGE: ShareImage = {
  url: '/static/images/og-default.png',
  width: 1200,
  height: 630,
  type: 'image/png',
  alt: 'The Competitive Shopping Association, Laguna Beach',
};

export interface PageMeta {
  /** Omit on the home page: its title is the site name alone. */
  title?: string;
  description?: string;
  image?: ShareImage;
  /** Product pages: the price for og:type product. */
  price?: number;
  type?: 'website' | 'product' | 'article';
  /** Path and query of the canonical URL. */
  path: string;
  noindex?: boolean;
  jsonLd?: Record<string, unknown>;
}

export interface SiteInfo {
  siteName: string;
  publicUrl: string;
  /** Production on the test gateway: a banner on every page says no real payments are taken. */
  testMode?: boolean;
}

export function pageTitle(site: SiteInfo, title?: string): string {
  return title ? `${title} | ${site.siteName}` : site.siteName;
}

/** The HTML shell: per-route meta for sharing and the stylesheet (the island scripts come with the viewer's tail). */
export function Document({ meta, site, children }: { meta: PageMeta; site: SiteInfo; children: ReactNode }) {
  const { manifest } = useRenderState();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        {/* React puts the page's image preloads here, before the kept tags. */}
        <Cached cacheKey={`head|${manifest.css}|${JSON.stringify(site)}|${JSON.stringify(meta)}`}>
          <HeadTags meta={meta} site={site} stylesheet={manifest.css} />
        </Cached>
      </head>
      <body className="min-h-screen bg-sand text-ink font-sans antialiased">{children}</body>
    </html>
  );
}

/** What a page tells browsers, crawlers and link previews: the same for every request of one page. */
function HeadTags({ meta, site, stylesheet }: { meta: PageMeta; site: SiteInfo; stylesheet: string }) {
  const title = pageTitle(site, meta.title);
  const description = meta.description ?? DEFAULT_DESCRIPTION;
  const url = `${site.publicUrl}${meta.path}`;
  const shareImage = meta.image ?? DEFAULT_SHARE_IMAGE;
  const image = absolute(site, shareImage.url);
  return (
    <>
      <title>{title}</title>
      <meta name="description" content={description} />
      <link rel="canonical" href={url} />
      {meta.noindex && <meta name="robots" content="noindex" />}
      <meta property="og:site_name" content={site.siteName} />
      <meta property="og:title" content={title} />
      <meta property="og:description" content={description} />
      <meta property="og:image" content={image} />
      <meta property="og:image:type" content={shareImage.type} />
      <meta property="og:image:width" content={String(shareImage.width)} />
      <meta property="og:image:height" content={String(shareImage.height)} />
      <meta property="og:image:alt" content={shareImage.alt} />
      <meta property="og:url" content={url} />
      <meta property="og:type" content={meta.type ?? 'website'} />
      {meta.price !== undefined && <meta property="product:price:amount" content={meta.price.toFixed(2)} />}
      {meta.price !== undefined && <meta property="product:price:currency" content="USD" />}
      <meta name="twitter:card" content="summary_large_image" />
      <meta name="twitter:title" content={title} />
      <meta name="twitter:description" content={description} />
      <meta name="twitter:image" content={image} />
      <meta name="twitter:image:alt" content={shareImage.alt} />
      <meta name="theme-color" content="#0f2a44" />
      <link rel="icon" href="/static/favicon.svg" type="image/svg+xml" />
      <link rel="apple-touch-icon" href="/static/apple-touch-icon.png" />
      <link rel="stylesheet" href={stylesheet} />
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: serializeProps escapes <, > and & so the JSON cannot close the script. */}
      {meta.jsonLd && <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: serializeProps(meta.jsonLd) }} />}
    </>
  );
}

function absolute(site: SiteInfo, pathOrUrl: string): string {
  return /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${site.publicUrl}${pathOrUrl.startsWith('/') ? '' : '/'}${pathOrUrl}`;
}

/**
 * Rendered last, so every island above has registered itself: a page without islands
 * ships no JavaScript at all.
 */
export function IslandScripts() {
  const { manifest, islandsUsed, needsImageFallback } = useRenderState();
  const fallback = needsImageFallback && manifest.imageFallback ? <script type="module" src={manifest.imageFallback} /> : null;
  if (islandsUsed.size === 0) return fallback;
  return (
    <>
      {fallback}
      {[...islandsUsed].map((name) => (
        <link key={name} rel="modulepreload" href={manifest.islands[name]} />
      ))}
      <script type="module" src={manifest.runtime} />
    </>
  );
}
