/**
 * `mon report` as one self-contained HTML file: inline stylesheet and SVG charts, no script, no
 * external font, stylesheet or image (a logo is embedded as data), so it opens offline, mails as
 * an attachment and prints to PDF on A4 or Letter. Every text is escaped: names come from the
 * API and from customers.
 */
import type { ReportData, InventoryRow } from './collect.js';
import { terminalSafe } from '../output/escape.js';

export interface ReportLook {
  title: string;
  /** A data: URL of the logo, already checked. */
  logo?: string;
  footer?: string;
  version: string;
}

/** Text for HTML, in content and in attribute values alike. */
export function escapeHtml(text: string): string {
  // Control characters as escape.ts shows them: inert in a browser, and in a file cat'ed to a terminal.
  return terminalSafe(text, '\n\t').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const e = escapeHtml;
const DAY_MS = 86_400_000;
const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const minute = (ms: number | undefined): string => (ms === undefined ? '' : `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`);
const bytes = (n: number | undefined): string => (n === undefined ? '' : n >= 1e12 ? `${(n / 1e12).toFixed(1)} TB` : `${Math.round(n / 1e9)} GB`);
const percent = (n: number | undefined): string => (n === undefined ? '' : `${Math.round(n)}%`);
const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

const STYLE = `
@page { margin: 12mm; }
* { box-sizing: border-box; }
body { font: 10.5pt/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", Arial, sans-serif; color: #1d2330; margin: 0 auto; max-width: 186mm; padding: 8mm 0; }
header { display: flex; align-items: center; gap: 6mm; border-bottom: 2px solid #1d2330; padding-bottom: 3mm; margin-bottom: 5mm; }
header img { max-height: 16mm; max-width: 50mm; }
h1 { font-size: 18pt; margin: 0; }
h2 { font-size: 13pt; margin: 7mm 0 2mm; border-bottom: 1px solid #c9ced8; padding-bottom: 1mm; }
.sub { color: #5a6275; margin: 0; }
.cards { display: grid; grid-template-columns: repeat(3, 1fr); gap: 3mm; }
.card { border: 1px solid #c9ced8; border-radius: 2mm; padding: 2.5mm 3mm; break-inside: avoid; }
.card .n { font-size: 17pt; font-weight: 700; display: block; }
.card .what { color: #5a6275; }
.alert { color: #b3261e; } .warning { color: #8a5a00; }
.charts { display: grid; grid-template-columns: 1fr 1fr; gap: 4mm; }
figure { margin: 0; border: 1px solid #c9ced8; border-radius: 2mm; padding: 2mm 3mm; break-inside: avoid; }
figure.wide { grid-column: 1 / -1; }
figcaption { font-weight: 600; margin-bottom: 1mm; }
svg { width: 100%; height: auto; display: block; }
svg text { font: 11px system-ui, "DejaVu Sans", Arial, sans-serif; fill: #1d2330; }
table { border-collapse: collapse; width: 100%; font-size: 8.5pt; }
thead { display: table-header-group; }
tr { break-inside: avoid; }
th, td { text-align: left; padding: 1mm 1.5mm; border-bottom: 1px solid #e3e6ec; vertical-align: top; }
th { background: #f1f3f7; }
td.num, th.num { text-align: right; white-space: nowrap; }
a { color: #1a56a8; text-decoration: none; }
.none { color: #5a6275; font-style: italic; }
footer { margin-top: 8mm; border-top: 1px solid #c9ced8; padding-top: 2mm; color: #5a6275; font-size: 8.5pt; }
`;

/** A horizontal bar chart: a label, a bar and the value on each row. */
export function barChart(title: string, rows: readonly [string, number][], colour = '#3b6fd8'): string {
  const shown = rows.length > 0 ? rows : [['(none)', 0] as [string, number]];
  const width = 320;
  const labelWidth = 130;
  const rowHeight = 20;
  const max = Math.max(1, ...shown.map(([, n]) => n));
  const height = shown.length * rowHeight + 4;
  const bars = shown
    .map(([label, n], i) => {
      const y = i * rowHeight + 2;
      const barWidth = Math.round(((width - labelWidth - 40) * n) / max);
      const cut = label.length > 22 ? `${label.slice(0, 21)}…` : label;
      return `<text x="0" y="${y + 14}">${e(cut)}</text><rect x="${labelWidth}" y="${y + 3}" width="${barWidth}" height="${rowHeight - 6}" fill="${colour}"/><text x="${labelWidth + barWidth + 4}" y="${y + 14}">${n.toLocaleString('en')}</text>`;
    })
    .join('');
  return `<svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${e(title)}">${bars}</svg>`;
}

/** A column chart over labelled periods (the months ahead). */
export function columnChart(title: string, columns: readonly [string, number][], colour = '#2f8f6b'): string {
  const width = 640;
  const height = 150;
  const base = height - 22;
  const slot = width / Math.max(1, columns.length);
  const max = Math.max(1, ...columns.map(([, n]) => n));
  const drawn = columns
    .map(([label, n], i) => {
      const barHeight = Math.round(((base - 18) * n) / max);
      const x = Math.round(i * slot + slot * 0.15);
      const w = Math.round(slot * 0.7);
      return `<rect x="${x}" y="${base - barHeight}" width="${w}" height="${barHeight}" fill="${colour}"/><text x="${x + w / 2}" y="${base - barHeight - 4}" text-anchor="middle">${n}</text><text x="${x + w / 2}" y="${height - 6}" text-anchor="middle">${e(label)}</text>`;
    })
    .join('');
  return `<svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${e(title)}"><line x1="0" y1="${base}" x2="${width}" y2="${base}" stroke="#c9ced8"/>${drawn}</svg>`;
}

const table = (headers: readonly string[], rows: readonly string[][], numeric: readonly number[] = []): string =>
  `<table><thead><tr>${headers.map((h, i) => `<th${numeric.includes(i) ? ' class="num"' : ''}>${e(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((cells) => `<tr>${cells.map((cell, i) => `<td${numeric.includes(i) ? ' class="num"' : ''}>${cell}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;

/** A name, linked to the service's page of it when that is a web address (never another scheme). */
const linked = (row: { url: string | undefined }, name: string): string => (row.url && /^https?:\/\//i.test(row.url) ? `<a href="${e(row.url)}">${e(name)}</a>` : e(name));
const none = (text: string): string => `<p class="none">${e(text)}</p>`;

/** The whole document. */
export function renderReport(data: ReportData, look: ReportLook): string {
  const { status } = data;
  const platforms = Object.entries(status.computers.platforms).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const card = (n: number, what: string, tone = '') => `<div class="card"><span class="n${tone ? ` ${tone}` : ''}">${n.toLocaleString('en')}</span><span class="what">${e(what)}</span></div>`;
  const alertsByGroup = status.groups.filter((group) => group.alerts > 0).map((group) => [group.name ?? '(no group)', group.alerts] as [string, number]);

  const sections: string[] = [];
  sections.push(`<section id="glance"><h2>At a glance</h2><div class="cards">
${card(status.computers.total, `computers (${platforms.map(([p, n]) => `${n} ${p}`).join(', ') || 'none'})`)}
${card(status.computers.missing, 'missing', status.computers.missing > 0 ? 'alert' : '')}
${card(status.computers.hidden, 'hidden')}
${card(status.plugin_results.alerts, 'alerts, unmuted', status.plugin_results.alerts > 0 ? 'alert' : '')}
${card(status.plugin_results.warnings, 'warnings, unmuted', status.plugin_results.warnings > 0 ? 'warning' : '')}
${card(status.plugin_results.muted, 'muted plugin results')}
</div></section>`);

  sections.push(`<section id="charts"><h2>Charts</h2><div class="charts">
<figure><figcaption>Platforms</figcaption>${barChart('Computers by platform', platforms)}</figure>
<figure><figcaption>Operating systems</figcaption>${barChart('Computers by operating system', data.osVersions.slice(0, 8), '#6a4fc9')}</figure>
<figure><figcaption>Boot volume use</figcaption>${barChart('Computers by boot volume use', data.bootUse, '#c27a1a')}</figure>
<figure><figcaption>Unmuted alerts by group</figcaption>${barChart('Unmuted alerts by group', alertsByGroup, '#b3261e')}</figure>
<figure class="wide"><figcaption>Expirations by month, next twelve months</figcaption>${columnChart('Expirations by month', data.expiringByMonth.map(([month, n]) => [month.slice(2), n]))}</figure>
</div></section>`);

  if (data.since) {
    const { sinceMs, newComputers } = data.since;
    sections.push(`<section id="since"><h2>Since ${e(day(sinceMs))}</h2>
<p>${e(plural(newComputers.length, 'computer'))} registered since then${newComputers.length ? `: ${newComputers.map((row) => linked(row, row.name)).join(', ')}` : ''}.</p>
<p class="none">mon keeps no history of this account's earlier states for a report, so it shows no trends: only what the API's own timestamps tell.</p></section>`);
  }

  const missingFor = (row: InventoryRow) => (row.lastReportMs === undefined ? 'never reported' : plural(Math.max(0, Math.floor((data.nowMs - row.lastReportMs) / DAY_MS)), 'day'));
  sections.push(`<section id="attention"><h2>Computers needing attention</h2>
<h3>Missing (${data.missing.length})</h3>${data.missing.length ? table(['Computer', 'Group', 'Last report', 'Missing for'], data.missing.map((row) => [linked(row, row.name), e(row.group), e(minute(row.lastReportMs)), e(missingFor(row))])) : none('No computer is missing.')}
<h3>Alerts and warnings (${data.attention.length})</h3>${data.attention.length ? table(['Computer', 'Group', 'Plugin', 'Status', 'Details'], data.attention.map((row) => [linked(row, row.computer), e(row.group), e(row.plugin), `<span class="${row.status === 'Alert' ? 'alert' : 'warning'}">${e(row.status)}</span>`, e(row.details)])) : none('No unmuted alert or warning.')}
</section>`);

  sections.push(`<section id="expirations"><h2>Expirations in the next 90 days (${data.due.length})</h2>${
    data.due.length ? table(['What', 'Computer', 'Group', 'Ends'], data.due.map((row) => [e(row.what), e(row.computer), e(row.group), e(day(row.expiresMs))])) : none('Nothing expires in the next 90 days.')
  }</section>`);

  sections.push(`<section id="inventory"><h2>Inventory (${data.inventory.length})</h2>${table(
    ['Name', 'Group', 'Platform', 'OS', 'RAM', 'Boot volume', 'Used', 'Last report'],
    data.inventory.map((row) => [linked(row, row.name), e(row.group), e(row.platform), e(row.os), e(row.ram), e(bytes(row.bootCapacityBytes)), e(percent(row.bootUsedPercent)), e(minute(row.lastReportMs))]),
    [5, 6],
  )}</section>`);

  const logo = look.logo ? `<img src="${e(look.logo)}" alt="">` : '';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(look.title)}</title><style>${STYLE}</style></head>
<body><header>${logo}<div><h1>${e(look.title)}</h1><p class="sub">${e(data.account)} · ${e(day(data.nowMs))}</p></div></header>
${sections.join('\n')}
<footer>${look.footer ? `${e(look.footer)} · ` : ''}Generated by mon ${e(look.version)} from the Endpoint Monitoring Service API on ${e(day(data.nowMs))}.</footer>
</body></html>
`;
}
