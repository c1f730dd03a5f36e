/**
 * `mon report` as one self-contained HTML file: inline stylesheet and SVG charts, no script, no
 * external font, stylesheet or image (a logo is embedded as data), so it opens offline, mails as
 * an attachment and prints to PDF on A4 or Letter. Every text is escaped: names come from the
 * API and from customers.
 */
import type { ReportData } from './collect.js';
import { periodLabel, ReaderTime } from './dates.js';
import { e } from './markup.js';
import {
  attentionSection,
  chartsSection,
  decisionsSection,
  glanceSection,
  inventorySection,
  periodSection,
  platformsOf,
  securitySection,
} from './sections.js';
import type { Period, Trends } from './trends.js';

export { barChart, columnChart, lineChart, wrapLabel } from './charts.js';
export { ago, dayLabel, monthLabel, periodLabel, ReaderTime, readerZone } from './dates.js';
export { escapeHtml } from './markup.js';

export interface ReportLook {
  title: string;
  /** A data: URL of the logo, already checked. */
  logo?: string;
  footer?: string;
  version: string;
}

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

/** The whole document. */
export function renderReport(data: ReportData, look: ReportLook, frame: ReportFrame = {}): string {
  const zone = frame.zone ?? 'UTC';
  const time = new ReaderTime(zone);
  const platforms = platformsOf(data);
  const sections = [
    glanceSection(data, platforms),
    periodSection(data, time, frame.trends, frame.noTrends),
    decisionsSection(data, time),
    securitySection(data),
    attentionSection(data, time),
    chartsSection(data, platforms),
    inventorySection(data, time),
  ].filter((section) => section !== undefined);
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
