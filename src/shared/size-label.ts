/*
 * How a line names the size it was bought in (issue 38), the same on every page, receipt,
 * e-mail and export: 'Size M'. A line whose product has no sizes to tell apart carries '' and
 * says nothing. Browser-safe: the cart's island and the server both print it.
 */

/** 'Size M', or '' for a line without a size. */
export function sizeText(sizeLabel: string | null | undefined): string {
  return sizeLabel ? `Size ${sizeLabel}` : '';
}

/** 'Classic Tee · Size M': a line's name with its size, where one line of text must carry both. */
export function withSize(label: string, sizeLabel: string | null | undefined): string {
  const size = sizeText(sizeLabel);
  return size ? `${label} · ${size}` : label;
}
