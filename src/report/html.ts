/**
 * `mon report` as one self-contained HTML file: inline stylesheet and SVG charts, no script, no
 * external font, stylesheet or image (a logo is embedded as data), so it opens offline, mails as
 * an attachment and prints to PDF on A4 or Letter. Every text is escaped: names come from the
 * API and from customers.
 */
import type { ReportData, InventoryRow } from './collect.js';
import { terminalSafe } from '../text/escape.js';
import type { Period, Trends } from './trends.js';

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
  return terminalSafe(text, '\n\t').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

const e = escapeHtml;
const DAY_MS = 86_400_000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const bytes = (n: number | undefined): string =>
  n === undefined ? '' : n >= 1e12 ? `${(n / 1e12).toFixed(1)} TB` : `${Math.round(n / 1e9)} GB`;
const percent = (n: number | undefined): string => (n === undefined ? '' : `${Math.round(n)}%`);
const plural = (n: number, one: string, many = `${one}s`): string =>
  `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

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
.charts { display: grid; grid-template-columns: 1fr 1fr; gap: 4mm; align-items: start; }
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
.none { color: #5a6275; }
.note { color: #5a6275; font-size: 9pt; margin: 1.5mm 0 0; }
.trends { display: grid; grid-template-columns: 1fr 1fr; gap: 4mm; }
.past { color: #b3261e; font-weight: 600; } .soon { color: #8a5a00; font-weight: 600; }
td { overflow-wrap: break-word; }
footer { margin-top: 8mm; border-top: 1px solid #c9ced8; padding-top: 2mm; color: #5a6275; font-size: 8.5pt; }
`;

/** A horizontal bar chart: a label, a bar and the value on each row. */
export function barChart(title: string, rows: readonly [string, number][], colour = '#3b6fd8'): string {
  const shown = rows.length > 0 ? rows : [['(none)', 0] as [string, number]];
  const width = 320;
  const labelWidth = 130;
  const lineHeight = 13;
  const max = Math.max(1, ...shown.map(([, n]) => n));
  let y = 2;
  const bars = shown
    .map(([label, n]) => {
      // A long name wraps onto more lines rather than being cut.
      const lines = wrapLabel(label, 21);
      const rowHeight = Math.max(20, lines.length * lineHeight + 7);
      const barWidth = Math.round(((width - labelWidth - 40) * n) / max);
      const labelText =
        lines.length === 1
          ? e(label)
          : lines.map((line, i) => `<tspan x="0" dy="${i === 0 ? 0 : lineHeight}">${e(line)}</tspan>`).join('');
      const drawn = `<text x="0" y="${y + 14}">${labelText}</text><rect x="${labelWidth}" y="${y + 3}" width="${barWidth}" height="14" fill="${colour}"/><text x="${labelWidth + barWidth + 4}" y="${y + 14}">${n.toLocaleString('en')}</text>`;
      y += rowHeight;
      return drawn;
    })
    .join('');
  const height = y + 2;
  return `<svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${e(title)}">${bars}</svg>`;
}

/** A label in lines of at most `width` characters, broken between words (a longer word stays whole). */
export function wrapLabel(label: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of label.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

/**
 * A line chart of one figure day by day: a point per recorded day, each with its day and value
 * as a tooltip (and for a reader of the page's text), the first and last value written.
 */
export function lineChart(
  title: string,
  days: readonly string[],
  values: readonly number[],
  colour = '#3b6fd8',
): string {
  const width = 320;
  const height = 140;
  const left = 34;
  const top = 10;
  const bottom = height - 22;
  const max = Math.max(1, ...values);
  const x = (i: number) => Math.round(left + ((width - left - 8) * i) / Math.max(1, days.length - 1));
  const y = (n: number) => Math.round(bottom - ((bottom - top) * n) / max);
  const points = values.map((n, i) => `${x(i)},${y(n)}`).join(' ');
  const dots = values
    .map(
      (n, i) =>
        `<circle cx="${x(i)}" cy="${y(n)}" r="2.2" fill="${colour}" data-day="${e(days[i]!)}" data-value="${n}"><title>${e(dayLabel(days[i]!))}: ${n}</title></circle>`,
    )
    .join('');
  const axis = `<line x1="${left}" y1="${bottom}" x2="${width}" y2="${bottom}" stroke="#c9ced8"/><text x="${left - 4}" y="${top + 4}" text-anchor="end">${max}</text><text x="${left - 4}" y="${bottom}" text-anchor="end">0</text>`;
  const labels = `<text x="${left}" y="${height - 6}">${e(dayLabel(days[0]!))}</text><text x="${width}" y="${height - 6}" text-anchor="end">${e(dayLabel(days.at(-1)!))}</text>`;
  return `<svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${e(title)}">${axis}<polyline points="${points}" fill="none" stroke="${colour}" stroke-width="2"/>${dots}${labels}</svg>`;
}

/** A UTC day YYYY-MM-DD as people read it: 20 Nov 2026. */
export function dayLabel(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return `${date} ${MONTHS[month - 1]} ${year}`;
}

/** A month YYYY-MM as people read it: Nov 2026. */
export const monthLabel = (month: string): string => `${MONTHS[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;

/** The period as the title says it: "Nov 2026", or "29 Oct – 28 Nov 2026". */
export function periodLabel(period: Period): string {
  if (period.kind === 'month') return monthLabel(period.fromDay.slice(0, 7));
  const from = dayLabel(period.fromDay);
  const to = dayLabel(period.toDay);
  return period.fromDay.slice(0, 4) === period.toDay.slice(0, 4)
    ? `${from.replace(/ \d{4}$/, '')} – ${to}`
    : `${from} – ${to}`;
}

/** Times in the reader's zone. */
export class ReaderTime {
  private readonly parts: Intl.DateTimeFormat;
  constructor(readonly zone: string) {
    this.parts = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
  }
  /** YYYY-MM-DD and HH:MM of a time in the zone. */
  private split(ms: number): { day: string; time: string } {
    const p = Object.fromEntries(this.parts.formatToParts(ms).map((part) => [part.type, part.value]));
    return { day: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
  }
  day(ms: number): string {
    return dayLabel(this.split(ms).day);
  }
  minute(ms: number | undefined): string {
    if (ms === undefined) return '';
    const { day, time } = this.split(ms);
    return `${dayLabel(day)} ${time}`;
  }
}

/** The reader's time zone: TZ when it names one, else the system's; UTC when neither is known. */
export function readerZone(tz: string | undefined): string {
  const wanted = tz?.replace(/^:/, '').trim();
  for (const zone of [wanted, Intl.DateTimeFormat().resolvedOptions().timeZone]) {
    if (!zone) continue;
    try {
      return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    } catch {
      // not a zone this Node knows
    }
  }
  return 'UTC';
}

/** How long ago, in plain words: "3 days ago", "5 months ago", "2 years ago". */
export function ago(ms: number, nowMs: number): string {
  const days = Math.max(0, Math.floor((nowMs - ms) / DAY_MS));
  if (days < 1) return 'today';
  if (days < 60) return `${plural(days, 'day')} ago`;
  if (days < 730) return `${plural(Math.floor(days / 30.44), 'month')} ago`;
  return `${plural(Math.floor(days / 365.25), 'year')} ago`;
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
      return `<rect x="${x}" y="${base - barHeight}" width="${w}" height="${barHeight}" fill="${colour}"/><text x="${x + w / 2}" y="${base - barHeight - 4}" text-anchor="middle">${n}</text><text x="${x + w / 2}" y="${height - 6}" text-anchor="middle" font-size="10">${e(label)}</text>`;
    })
    .join('');
  return `<svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${e(title)}"><line x1="0" y1="${base}" x2="${width}" y2="${base}" stroke="#c9ced8"/>${drawn}</svg>`;
}

const table = (headers: readonly string[], rows: readonly string[][], numeric: readonly number[] = []): string =>
  `<table><thead><tr>${headers.map((h, i) => `<th${numeric.includes(i) ? ' class="num"' : ''}>${e(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map(
      (cells) =>
        `<tr>${cells.map((cell, i) => `<td${numeric.includes(i) ? ' class="num"' : ''}>${cell}</td>`).join('')}</tr>`,
    )
    .join('')}</tbody></table>`;

/** A name, linked to the service's page of it when that is a web address (never another scheme). */
const linked = (row: { url: string | undefined }, name: string): string =>
  row.url && /^https?:\/\//i.test(row.url) ? `<a href="${e(row.url)}">${e(name)}</a>` : e(name);
const none = (text: string): string => `<p class="none">${e(text)}</p>`;

/** What the report shows besides what it read: the period, the trends, the reader's zone. */
export interface ReportFrame {
  /** The customer's name (the profile's display name); never the profile's own name. */
  customer?: string;
  period?: Period;
  /** The days recorded in the period, or undefined with fewer than two. */
  trends?: Trends;
  /** When there are no trends: the one line that says why. */
  noTrends?: string;
  /** The reader's time zone (IANA name). */
  zone?: string;
}

/** The most rows a list of names shows before "and N more". */
const LIST_MAX = 200;

/** The whole document. */
export function renderReport(data: ReportData, look: ReportLook, frame: ReportFrame = {}): string {
  const { status } = data;
  const zone = frame.zone ?? 'UTC';
  const time = new ReaderTime(zone);
  const platforms = Object.entries(status.computers.platforms).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const card = (n: number, what: string, tone = '') =>
    `<div class="card"><span class="n${tone ? ` ${tone}` : ''}">${n.toLocaleString('en')}</span><span class="what">${e(what)}</span></div>`;
  const alertsByGroup = status.groups
    .filter((group) => group.alerts > 0)
    .map((group) => [group.name ?? '(no group)', group.alerts] as [string, number]);
  const more = (shown: number, total: number) =>
    total > shown
      ? `<p class="note">and ${plural(total - shown, 'more')} (the first ${shown.toLocaleString('en')} are listed).</p>`
      : '';
  const capped = <T>(rows: readonly T[]) => rows.slice(0, LIST_MAX);

  const sections: string[] = [];
  sections.push(`<section id="glance"><h2>At a glance</h2><div class="cards">
${card(status.computers.total, `computers (${platforms.map(([p, n]) => `${n} ${p}`).join(', ') || 'none'})`)}
${card(status.computers.missing, 'not reporting', status.computers.missing > 0 ? 'alert' : '')}
${card(status.computers.hidden, 'hidden from the dashboard')}
${card(status.plugin_results.alerts, 'open alerts', status.plugin_results.alerts > 0 ? 'alert' : '')}
${card(status.plugin_results.warnings, 'open warnings', status.plugin_results.warnings > 0 ? 'warning' : '')}
${card(status.plugin_results.muted, 'muted checks')}
</div><p class="note">Muted checks are alerts and warnings someone has acknowledged and silenced for a time: they are not counted as open.</p></section>`);

  // Over the period: the trends from the recorded days, or one line saying they start later.
  const period: string[] = [];
  if (frame.trends) {
    const { trends } = frame;
    const colours: Record<string, string> = {
      computers: '#3b6fd8',
      missing: '#c27a1a',
      alerts: '#b3261e',
      warnings: '#8a5a00',
    };
    period.push(
      `<div class="trends">${trends.series
        .map(
          (series) =>
            `<figure data-series="${series.key}"><figcaption>${e(series.label)}: ${series.values[0]} → ${series.values.at(-1)}</figcaption>${lineChart(series.label, trends.days, series.values, colours[series.key])}</figure>`,
        )
        .join('\n')}</div>`,
    );
    period.push(
      `<p class="note">${e(plural(trends.days.length, 'day'))} recorded, ${e(dayLabel(trends.days[0]!))} to ${e(dayLabel(trends.days.at(-1)!))}.</p>`,
    );
    const resultRows = (rows: readonly (readonly [string, string, string, string])[]) =>
      table(
        ['Computer', 'Check', 'Status'],
        capped(rows).map(([, computer, plugin, state]) => [
          e(computer),
          e(plugin),
          `<span class="${state === 'Alert' ? 'alert' : 'warning'}">${e(state)}</span>`,
        ]),
      );
    period.push(
      `<h3>Resolved since ${e(dayLabel(trends.days[0]!))} (${trends.resolved.length})</h3>${trends.resolved.length ? resultRows(trends.resolved) + more(LIST_MAX, trends.resolved.length) : none('Nothing open then has been resolved.')}`,
    );
    period.push(
      `<h3>New since ${e(dayLabel(trends.days[0]!))} (${trends.new.length})</h3>${trends.new.length ? resultRows(trends.new) + more(LIST_MAX, trends.new.length) : none('No new alert or warning.')}`,
    );
    if (trends.cut)
      period.push(
        `<p class="note">The lists above may be incomplete: a recorded day held more alerts than mon keeps.</p>`,
      );
  } else if (frame.noTrends) {
    period.push(`<p class="none" id="no-trends">${e(frame.noTrends)}</p>`);
  }
  if (data.since) {
    const { newComputers } = data.since;
    const since = time.day(data.since.sinceMs);
    period.push(
      newComputers.length
        ? `<p>${e(plural(newComputers.length, 'computer'))} added since ${e(since)}: ${capped(newComputers)
            .map((row) => linked(row, row.name))
            .join(', ')}.</p>`
        : `<p>No computer was added since ${e(since)}.</p>`,
    );
  }
  if (period.length) sections.push(`<section id="period"><h2>Over the period</h2>${period.join('\n')}</section>`);

  // What needs money or a decision.
  const decisions: string[] = [];
  decisions.push(
    `<h3>Expired warranties and licences (${data.expired.length})</h3>${
      data.expired.length
        ? table(
            ['What', 'Computer', 'Group', 'Ended', ''],
            capped(data.expired).map((row) => [
              e(row.what),
              e(row.computer),
              e(row.group),
              e(time.day(row.expiresMs)),
              e(ago(row.expiresMs, data.nowMs)),
            ]),
          ) + more(LIST_MAX, data.expired.length)
        : none('Nothing has expired.')
    }`,
  );
  decisions.push(
    `<h3>Ending in the next 90 days (${data.due.length})</h3>${
      data.due.length
        ? table(
            ['What', 'Computer', 'Group', 'Ends'],
            capped(data.due).map((row) => [e(row.what), e(row.computer), e(row.group), e(time.day(row.expiresMs))]),
          ) + more(LIST_MAX, data.due.length)
        : none('Nothing ends in the next 90 days.')
    }`,
  );
  const eosCount = data.endOfSupport.reduce((sum, entry) => sum + entry.computers.length, 0);
  decisions.push(
    `<h3>Operating systems past or near their end of support (${eosCount})</h3>${
      data.endOfSupport.length
        ? table(
            ['System', 'Support', 'Computers', 'Source'],
            data.endOfSupport.map(({ system, state, computers }) => [
              e(system.system),
              `<span class="${state}">${state === 'past' ? 'past end of support' : 'ends within 6 months'}</span><br>${e(dayLabel(system.ends))}${system.note ? ` (${e(system.note)})` : ''}`,
              `${computers.length}: ${capped(computers)
                .map((row) => linked(row, row.name))
                .join(', ')}`,
              `${e(system.source)}, checked ${e(dayLabel(system.checked))}`,
            ]),
          )
        : none("Every operating system is within its vendor's support.")
    }`,
  );
  decisions.push(
    `<h3>Boot volumes 90% full or more (${data.fullVolumes.length})</h3>${
      data.fullVolumes.length
        ? table(
            ['Computer', 'Group', 'Used', 'Size'],
            capped(data.fullVolumes).map((row) => [
              linked(row, row.name),
              e(row.group),
              e(percent(row.bootUsedPercent)),
              e(bytes(row.bootCapacityBytes)),
            ]),
            [2, 3],
          ) + more(LIST_MAX, data.fullVolumes.length)
        : none('No boot volume is 90% full.')
    }`,
  );
  sections.push(`<section id="decisions"><h2>Needs a decision</h2>${decisions.join('\n')}</section>`);

  if (data.security.length) {
    sections.push(
      `<section id="security"><h2>Security</h2>${table(
        ['Check', 'Computers checked', 'OK', 'Not OK'],
        data.security.map((check) => [
          e(check.kind),
          String(check.checked),
          String(check.ok),
          String(check.failing.length),
        ]),
        [1, 2, 3],
      )}${data.security
        .filter((check) => check.failing.length)
        .map(
          (check) =>
            `<h3>${e(check.kind)}: not OK (${check.failing.length})</h3>${table(
              ['Computer', 'Group', 'Check', 'Status', 'Details'],
              capped(check.failing).map((row) => [
                linked(row, row.computer),
                e(row.group),
                e(row.plugin),
                `<span class="${row.status === 'Alert' ? 'alert' : 'warning'}">${e(row.status)}</span>${row.muted ? ' (muted)' : ''}`,
                e(row.details),
              ]),
            )}${more(LIST_MAX, check.failing.length)}`,
        )
        .join('\n')}</section>`,
    );
  }

  const notReportingFor = (row: InventoryRow) =>
    row.lastReportMs === undefined
      ? 'never reported'
      : plural(Math.max(0, Math.floor((data.nowMs - row.lastReportMs) / DAY_MS)), 'day');
  sections.push(`<section id="attention"><h2>Computers needing attention</h2>
<h3>Not reporting (${data.missing.length})</h3>${
    data.missing.length
      ? table(
          ['Computer', 'Group', 'Last report', 'Not reporting for'],
          data.missing.map((row) => [
            linked(row, row.name),
            e(row.group),
            e(time.minute(row.lastReportMs)),
            e(notReportingFor(row)),
          ]),
        )
      : none('Every computer is reporting.')
  }
<h3>Open alerts and warnings (${data.attention.length})</h3>${
    data.attention.length
      ? table(
          ['Computer', 'Group', 'Check', 'Status', 'Details'],
          data.attention.map((row) => [
            linked(row, row.computer),
            e(row.group),
            e(row.plugin),
            `<span class="${row.status === 'Alert' ? 'alert' : 'warning'}">${e(row.status)}</span>`,
            e(row.details),
          ]),
        )
      : none('No open alert or warning.')
  }
</section>`);

  sections.push(`<section id="charts"><h2>Charts</h2><div class="charts">
<figure><figcaption>Platforms</figcaption>${barChart('Computers by platform', platforms)}</figure>
<figure><figcaption>Operating systems</figcaption>${barChart('Computers by operating system', data.osVersions.slice(0, 8), '#6a4fc9')}</figure>
<figure><figcaption>Boot volume use</figcaption>${barChart('Computers by boot volume use', data.bootUse, '#c27a1a')}</figure>
<figure><figcaption>Open alerts by group</figcaption>${barChart('Open alerts by group', alertsByGroup, '#b3261e')}</figure>
<figure class="wide"><figcaption>Warranties and licences ending, by month</figcaption>${columnChart(
    'Expirations by month',
    data.expiringByMonth.map(([month, n]) => [monthLabel(month), n]),
  )}</figure>
</div></section>`);

  const age = (row: InventoryRow) =>
    row.manufacturedMs === undefined
      ? ''
      : `${Math.max(0, Math.floor((data.nowMs - row.manufacturedMs) / (365.25 * DAY_MS)))} yr (${new Date(row.manufacturedMs).getUTCFullYear()})`;
  const withWarranty = data.inventory.some((row) => row.warranty);
  const withUser = data.inventory.some((row) => row.lastUser);
  const columns: [string, (row: InventoryRow) => string, boolean?][] = [
    ['Name', (row) => linked(row, row.name)],
    ['Group', (row) => e(row.group)],
    ['Model', (row) => e(row.model)],
    ['Serial', (row) => e(row.serial)],
    ['Age (made)', (row) => e(age(row))],
    ...(withWarranty
      ? [['Warranty', (row: InventoryRow) => e(row.warranty)] as [string, (row: InventoryRow) => string]]
      : []),
    ['OS', (row) => e(row.os)],
    ...(withUser
      ? [['Last user', (row: InventoryRow) => e(row.lastUser)] as [string, (row: InventoryRow) => string]]
      : []),
    ['Disk used', (row) => e(percent(row.bootUsedPercent))],
    ['Last report', (row) => e(time.minute(row.lastReportMs))],
  ];
  sections.push(
    `<section id="inventory"><h2>Inventory (${data.inventory.length})</h2>${table(
      columns.map(([header]) => header),
      data.inventory.map((row) => columns.map(([, cell]) => cell(row))),
      [columns.findIndex(([header]) => header === 'Disk used')],
    )}<p class="note">Age is from the estimated manufacture date the service gives.</p></section>`,
  );

  const logo = look.logo ? `<img src="${e(look.logo)}" alt="">` : '';
  const when = frame.period ? periodLabel(frame.period) : undefined;
  const title = when ? `${look.title} — ${when}` : look.title;
  const sub = [frame.customer, `as of ${time.day(data.nowMs)}`, `times in ${zone}`].filter(Boolean) as string[];
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(frame.customer ? `${frame.customer}: ${title}` : title)}</title><style>${STYLE}</style></head>
<body><header>${logo}<div><h1>${e(title)}</h1><p class="sub">${sub.map((part, i) => (i === 0 && frame.customer ? `<strong class="customer">${e(part)}</strong>` : e(part))).join(' · ')}</p></div></header>
${sections.join('\n')}
<footer>${look.footer ? `${e(look.footer)} · ` : ''}Generated by mon ${e(look.version)} from the Endpoint Monitoring Service API on ${e(time.day(data.nowMs))}.</footer>
</body></html>
`;
}
