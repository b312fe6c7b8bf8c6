/*
 * One look for every message: a heading, a few paragraphs, an optional table of rows and one
 * button, as plain text and as HTML. Links are paths ('/orders/12'); the sender puts
 * PUBLIC_URL in front when the message leaves (LINK_BASE), so domain code never needs it.
 * A link inside the text is written with `linkTo(path)`: absolute in the plain text, an anchor
 * in the HTML (a bare '/games/1' cannot be clicked in any mail client).
 */

/** Stands for PUBLIC_URL in stored bodies until the message is sent. */
export const LINK_BASE = '{{PUBLIC_URL}}';

export interface EmailContent {
  heading: string;
  paragraphs: string[];
  /** Label and value pairs, such as a receipt's lines and totals. */
  rows?: Array<[string, string]>;
  action?: { label: string; path: string };
  /** Why the reader got this message, under a rule. */
  footnote?: string;
}

export interface EmailBody {
  text: string;
  html: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

function link(path: string): string {
  return /^https?:\/\//.test(path) ? path : `${LINK_BASE}${path.startsWith('/') ? path : `/${path}`}`;
}

/** A link to a page of the store, for use inside a paragraph or footnote. */
export const linkTo = (path: string) => link(path);

/** A store link in escaped text: a path of URL characters (`&` escaped), not ending in punctuation. */
const STORE_LINK = /\{\{PUBLIC_URL\}\}(?:[A-Za-z0-9/_~%+#=?.:-]|&amp;)*[A-Za-z0-9/_~%+#=-]/g;

/** Text with its store links as anchors (the text is escaped first; a link's trailing full stop stays text). */
function htmlText(value: string): string {
  return escapeHtml(value).replace(STORE_LINK, (url) => `<a href="${url}">${url}</a>`);
}

export function composeEmail(content: EmailContent): EmailBody {
  const width = Math.max(0, ...(content.rows ?? []).map(([label]) => label.length));
  const text = [
    content.heading,
    '',
    ...content.paragraphs.flatMap((p) => [p, '']),
    ...(content.rows?.length ? [...content.rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`), ''] : []),
    ...(content.action ? [`${content.action.label}: ${link(content.action.path)}`, ''] : []),
    ...(content.footnote ? ['--', content.footnote] : []),
  ]
    .join('\n')
    .trimEnd();

  const rows = content.rows?.length
    ? `<table role="presentation" style="border-collapse:collapse;width:100%;margin:16px 0">${content.rows
        .map(
          ([label, value]) =>
            `<tr><td style="padding:6px 0;border-bottom:1px solid #e2e8f0;color:#475569">${escapeHtml(label)}</td><td style="padding:6px 0;border-bottom:1px solid #e2e8f0;text-align:right;font-weight:600">${escapeHtml(value)}</td></tr>`,
        )
        .join('')}</table>`
    : '';
  const action = content.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(link(content.action.path))}" style="display:inline-block;background:#0f766e;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:700">${escapeHtml(content.action.label)}</a></p>`
    : '';
  const footnote = content.footnote
    ? `<p style="margin-top:32px;padding-top:12px;border-top:1px solid #e2e8f0;font-size:12px;color:#64748b">${htmlText(content.footnote)}</p>`
    : '';
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(content.heading)}</title></head><body style="margin:0;background:#f8fafc;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#0f172a"><div style="max-width:560px;margin:0 auto;padding:24px;background:#ffffff"><p style="margin:0 0 16px;font-size:12px;letter-spacing:.08em;text-transform:uppercase;color:#64748b">The Competitive Shopping Association</p><h1 style="margin:0 0 16px;font-size:22px">${escapeHtml(content.heading)}</h1>${content.paragraphs
    .map((p) => `<p style="margin:0 0 12px;line-height:1.5">${htmlText(p)}</p>`)
    .join('')}${rows}${action}${footnote}</div></body></html>`;
  return { text, html };
}

/** Replaces LINK_BASE with the store's address when a message is sent. */
export function withPublicUrl(body: string, publicUrl: string): string {
  return body.split(LINK_BASE).join(publicUrl.replace(/\/+$/, ''));
}
