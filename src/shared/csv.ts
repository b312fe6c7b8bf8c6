/* Text for a spreadsheet: the admin's CSV exports (orders, the catalogue, boxes, teams, donations, free entries) write every cell through this. */

/**
 * One CSV cell. A cell a spreadsheet would run as a formula (= + - @, tab, return) gets a
 * leading apostrophe: a shopper's name or notes must never become a formula on the admin's machine.
 */
export function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
