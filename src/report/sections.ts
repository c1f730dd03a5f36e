/**
 * The sections of the report, in the order it shows them, each from what collect.ts read: at a
 * glance, over the period, what needs a decision, security, the computers needing attention, the
 * charts and the inventory.
 */
import type { InventoryRow, ReportData } from './collect.js';
import { barChart, columnChart, lineChart } from './charts.js';
import { ago, DAY_MS, dayLabel, monthLabel, type ReaderTime } from './dates.js';
import { bytes, e, linked, none, percent, plural, table } from './markup.js';
import type { Trends } from './trends.js';

/** The most rows a list of names shows before "and N more". */
const LIST_MAX = 200;

/** The first LIST_MAX rows. */
const capped = <T>(rows: readonly T[]) => rows.slice(0, LIST_MAX);

/** The line under a list cut to `shown` rows of `total`. */
const more = (shown: number, total: number) =>
  total > shown
    ? `<p class="note">and ${plural(total - shown, 'more')} (the first ${shown.toLocaleString('en')} are listed).</p>`
    : '';

/** An alert or a warning, coloured as such. */
const statusCell = (status: string) => `<span class="${status === 'Alert' ? 'alert' : 'warning'}">${e(status)}</span>`;

/** The computers by platform, most first (the glance's first card and the first chart). */
export function platformsOf(data: ReportData): [string, number][] {
  return Object.entries(data.status.computers.platforms).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** The counts of `mon status`, as cards. */
export function glanceSection(data: ReportData, platforms: readonly [string, number][]): string {
  const { status } = data;
  const card = (n: number, what: string, tone = '') =>
    `<div class="card"><span class="n${tone ? ` ${tone}` : ''}">${n.toLocaleString('en')}</span><span class="what">${e(what)}</span></div>`;
  return `<section id="glance"><h2>At a glance</h2><div class="cards">
${card(status.computers.total, `computers (${platforms.map(([p, n]) => `${n} ${p}`).join(', ') || 'none'})`)}
${card(status.computers.missing, 'not reporting', status.computers.missing > 0 ? 'alert' : '')}
${card(status.computers.hidden, 'hidden from the dashboard')}
${card(status.plugin_results.alerts, 'open alerts', status.plugin_results.alerts > 0 ? 'alert' : '')}
${card(status.plugin_results.warnings, 'open warnings', status.plugin_results.warnings > 0 ? 'warning' : '')}
${card(status.plugin_results.muted, 'muted checks')}
</div><p class="note">Muted checks are alerts and warnings someone has acknowledged and silenced for a time: they are not counted as open.</p></section>`;
}

/**
 * Over the period: the trends from the recorded days, or one line saying they start later, and
 * the computers added since the period began. Undefined when there is nothing to say.
 */
export function periodSection(
  data: ReportData,
  time: ReaderTime,
  trends: Trends | undefined,
  noTrends: string | undefined,
): string | undefined {
  const period: string[] = [];
  if (trends) period.push(...trendParts(trends));
  else if (noTrends) period.push(`<p class="none" id="no-trends">${e(noTrends)}</p>`);
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
  return period.length ? `<section id="period"><h2>Over the period</h2>${period.join('\n')}</section>` : undefined;
}

/** Each figure day by day, and what was resolved or is new between the first and last recorded day. */
function trendParts(trends: Trends): string[] {
  const colours: Record<string, string> = {
    computers: '#3b6fd8',
    missing: '#c27a1a',
    alerts: '#b3261e',
    warnings: '#8a5a00',
  };
  const parts = [
    `<div class="trends">${trends.series
      .map(
        (series) =>
          `<figure data-series="${series.key}"><figcaption>${e(series.label)}: ${series.values[0]} → ${series.values.at(-1)}</figcaption>${lineChart(series.label, trends.days, series.values, colours[series.key])}</figure>`,
      )
      .join('\n')}</div>`,
    `<p class="note">${e(plural(trends.days.length, 'day'))} recorded, ${e(dayLabel(trends.days[0]!))} to ${e(dayLabel(trends.days.at(-1)!))}.</p>`,
  ];
  const resultRows = (rows: readonly (readonly [string, string, string, string])[]) =>
    table(
      ['Computer', 'Check', 'Status'],
      capped(rows).map(([, computer, plugin, state]) => [e(computer), e(plugin), statusCell(state)]),
    );
  parts.push(
    `<h3>Resolved since ${e(dayLabel(trends.days[0]!))} (${trends.resolved.length})</h3>${trends.resolved.length ? resultRows(trends.resolved) + more(LIST_MAX, trends.resolved.length) : none('Nothing open then has been resolved.')}`,
  );
  parts.push(
    `<h3>New since ${e(dayLabel(trends.days[0]!))} (${trends.new.length})</h3>${trends.new.length ? resultRows(trends.new) + more(LIST_MAX, trends.new.length) : none('No new alert or warning.')}`,
  );
  if (trends.cut)
    parts.push(
      `<p class="note">The lists above may be incomplete: a recorded day held more alerts than mon keeps.</p>`,
    );
  return parts;
}

/** What needs money or a decision: expirations past and due, operating systems, full volumes. */
export function decisionsSection(data: ReportData, time: ReaderTime): string {
  const decisions = [expiredPart(data, time), duePart(data, time), endOfSupportPart(data), fullVolumesPart(data)];
  return `<section id="decisions"><h2>Needs a decision</h2>${decisions.join('\n')}</section>`;
}

function expiredPart(data: ReportData, time: ReaderTime): string {
  return `<h3>Expired warranties and licences (${data.expired.length})</h3>${
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
  }`;
}

function duePart(data: ReportData, time: ReaderTime): string {
  return `<h3>Ending in the next 90 days (${data.due.length})</h3>${
    data.due.length
      ? table(
          ['What', 'Computer', 'Group', 'Ends'],
          capped(data.due).map((row) => [e(row.what), e(row.computer), e(row.group), e(time.day(row.expiresMs))]),
        ) + more(LIST_MAX, data.due.length)
      : none('Nothing ends in the next 90 days.')
  }`;
}

function endOfSupportPart(data: ReportData): string {
  const eosCount = data.endOfSupport.reduce((sum, entry) => sum + entry.computers.length, 0);
  return `<h3>Operating systems past or near their end of support (${eosCount})</h3>${
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
  }`;
}

function fullVolumesPart(data: ReportData): string {
  return `<h3>Boot volumes 90% full or more (${data.fullVolumes.length})</h3>${
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
  }`;
}

/** The security checks the plugin results carry, and the computers failing each; undefined when none. */
export function securitySection(data: ReportData): string | undefined {
  if (!data.security.length) return undefined;
  return `<section id="security"><h2>Security</h2>${table(
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
            `${statusCell(row.status)}${row.muted ? ' (muted)' : ''}`,
            e(row.details),
          ]),
        )}${more(LIST_MAX, check.failing.length)}`,
    )
    .join('\n')}</section>`;
}

/** The computers not reporting, and the open alerts and warnings. */
export function attentionSection(data: ReportData, time: ReaderTime): string {
  const notReportingFor = (row: InventoryRow) =>
    row.lastReportMs === undefined
      ? 'never reported'
      : plural(Math.max(0, Math.floor((data.nowMs - row.lastReportMs) / DAY_MS)), 'day');
  return `<section id="attention"><h2>Computers needing attention</h2>
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
            statusCell(row.status),
            e(row.details),
          ]),
        )
      : none('No open alert or warning.')
  }
</section>`;
}

/** The distributions, as charts. */
export function chartsSection(data: ReportData, platforms: readonly [string, number][]): string {
  const alertsByGroup = data.status.groups
    .filter((group) => group.alerts > 0)
    .map((group) => [group.name ?? '(no group)', group.alerts] as [string, number]);
  return `<section id="charts"><h2>Charts</h2><div class="charts">
<figure><figcaption>Platforms</figcaption>${barChart('Computers by platform', platforms)}</figure>
<figure><figcaption>Operating systems</figcaption>${barChart('Computers by operating system', data.osVersions.slice(0, 8), '#6a4fc9')}</figure>
<figure><figcaption>Boot volume use</figcaption>${barChart('Computers by boot volume use', data.bootUse, '#c27a1a')}</figure>
<figure><figcaption>Open alerts by group</figcaption>${barChart('Open alerts by group', alertsByGroup, '#b3261e')}</figure>
<figure class="wide"><figcaption>Warranties and licences ending, by month</figcaption>${columnChart(
    'Expirations by month',
    data.expiringByMonth.map(([month, n]) => [monthLabel(month), n]),
  )}</figure>
</div></section>`;
}

/** Every computer, with the columns the API gives (warranty and last user only where some have them). */
export function inventorySection(data: ReportData, time: ReaderTime): string {
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
  return `<section id="inventory"><h2>Inventory (${data.inventory.length})</h2>${table(
    columns.map(([header]) => header),
    data.inventory.map((row) => columns.map(([, cell]) => cell(row))),
    [columns.findIndex(([header]) => header === 'Disk used')],
  )}<p class="note">Age is from the estimated manufacture date the service gives.</p></section>`;
}
