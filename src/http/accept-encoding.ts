/**
 * Whether the client takes gzip, by its Accept-Encoding with q-values (RFC 9110 12.5.3):
 * `gzip;q=0` and `*;q=0` say no, `gzip;q=0.5`, `x-gzip` and a `*` that gzip is not excluded from
 * say yes. A plain search for "gzip" in the header sent gzip to a client that had refused it.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let gzip: number | undefined;
  let any: number | undefined;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim());
    let q = 1;
    for (const param of params) {
      const match = /^q\s*=\s*([0-9.]+)$/i.exec(param);
      if (match) q = Number(match[1]);
    }
    if (!Number.isFinite(q)) q = 0;
    const coding = name.toLowerCase();
    if (coding === 'gzip' || coding === 'x-gzip') gzip = Math.max(gzip ?? 0, q);
    else if (coding === '*') any = q;
  }
  return (gzip ?? any ?? 0) > 0;
}
