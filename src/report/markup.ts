/**
 * The report's pieces of HTML: text escaped for HTML, counts in words, tables, links to the
 * service's pages. Every text is escaped: names come from the API and from customers.
 */
import { terminalSafe } from '../text/escape.js';

/** Text for HTML, in content and in attribute values alike. */
export function escapeHtml(text: string): string {
  // Control characters as escape.ts shows them: inert in a browser, and in a file cat'ed to a terminal.
  return terminalSafe(text, '\n\t').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** escapeHtml, short: the report calls it on every text it shows. */
export const e = escapeHtml;

/** A size in bytes as a volume is sold: 500 GB, 1.2 TB. */
export const bytes = (n: number | undefined): string =>
  n === undefined ? '' : n >= 1e12 ? `${(n / 1e12).toFixed(1)} TB` : `${Math.round(n / 1e9)} GB`;
/** A percentage, rounded: 93%. */
export const percent = (n: number | undefined): string => (n === undefined ? '' : `${Math.round(n)}%`);
/** A count and its noun: 1 day, 3 days, 1,204 computers. */
export const plural = (n: number, one: string, many = `${one}s`): string =>
  `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** A table: `headers` as text (escaped here), `rows` of cells already HTML; `numeric` columns align right. */
export const table = (headers: readonly string[], rows: readonly string[][], numeric: readonly number[] = []): string =>
  `<table><thead><tr>${headers.map((h, i) => `<th${numeric.includes(i) ? ' class="num"' : ''}>${e(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map(
      (cells) =>
        `<tr>${cells.map((cell, i) => `<td${numeric.includes(i) ? ' class="num"' : ''}>${cell}</td>`).join('')}</tr>`,
    )
    .join('')}</tbody></table>`;

/** A name, linked to the service's page of it when that is a web address (never another scheme). */
export const linked = (row: { url: string | undefined }, name: string): string =>
  row.url && /^https?:\/\//i.test(row.url) ? `<a href="${e(row.url)}">${e(name)}</a>` : e(name);
/** The one line a section shows when it has nothing to list. */
export const none = (text: string): string => `<p class="none">${e(text)}</p>`;
