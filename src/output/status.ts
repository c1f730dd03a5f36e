/**
 * The people's view of `mon status`: short sections with horizontal bar charts in Unicode
 * blocks, all drawn to one scale (the largest number on the screen), so that one alert beside
 * 200 computers draws a sliver, not a full bar. The same text on a terminal and in a pipe;
 * colour only when the caller allows it; every name through the one escaping rule (escape.ts).
 */
import { terminalSafe } from '../text/escape.js';
import type { StatusReport } from './status-report.js';
import type { Sink } from './types.js';

/** Cells of the longest bar. */
const BAR_WIDTH = 24;
const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** A bar of `value` against `max`, in eighths of a cell; a non-zero value shows at least ▏. */
export function bar(value: number, max: number, width = BAR_WIDTH): string {
  if (value <= 0 || max <= 0) return '';
  const eighths = Math.max(1, Math.round((value / max) * width * 8));
  return '█'.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8];
}

type Colour = 'red' | 'yellow' | 'green' | 'cyan' | 'bold';
const CODES: Record<Colour, [number, number]> = {
  red: [31, 39],
  yellow: [33, 39],
  green: [32, 39],
  cyan: [36, 39],
  bold: [1, 22],
};

interface Line {
  label: string;
  value: number;
  colour?: Colour;
  /** Text after the number. */
  note?: string;
}

/** Renders the report; `color` as decided by the caller (terminal, NO_COLOR, --no-color). */
export function renderStatus(report: StatusReport, out: Sink, color: boolean): void {
  const paint = (colour: Colour | undefined, text: string) =>
    color && colour && text ? `\x1b[${CODES[colour][0]}m${text}\x1b[${CODES[colour][1]}m` : text;
  const sections: { title: string; lines: Line[]; empty?: string }[] = [];
  const section = (title: string, lines: Line[], empty?: string) => sections.push({ title, lines, empty });

  const { computers, plugin_results: results, expirations } = report;
  const scope = report.scope.groups ? ` in ${report.scope.groups.map((g) => g.name ?? g.uid).join(', ')}` : '';
  section(`Computers${scope}: ${computers.total}`, [
    { label: 'missing', value: computers.missing, colour: computers.missing > 0 ? 'red' : undefined },
    { label: 'hidden', value: computers.hidden },
    { label: 'pending removal', value: computers.pending_removal },
    ...Object.entries(computers.platforms)
      .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
      .map(([platform, value]) => ({ label: platform, value, colour: 'cyan' as const })),
  ]);
  // The lines add up to the total: the unmuted results neither Alert nor Warning are OK or
  // Informational, and a status the API may add has a line of its own when there is any.
  const unmuted = (status: string) =>
    report.groups.reduce((sum, group) => sum + (group.results.unmuted[status] ?? 0), 0);
  const ok = unmuted('OK');
  const informational = unmuted('Informational');
  const other = results.total - results.alerts - results.warnings - results.muted - results.hidden - ok - informational;
  section(`Plugin results: ${results.total}`, [
    { label: 'Alert (unmuted)', value: results.alerts, colour: 'red' },
    { label: 'Warning (unmuted)', value: results.warnings, colour: 'yellow' },
    { label: 'OK (unmuted)', value: ok, colour: 'green' },
    ...(informational > 0 ? [{ label: 'Informational (unmuted)', value: informational }] : []),
    ...(other > 0 ? [{ label: 'other status (unmuted)', value: other }] : []),
    { label: 'muted', value: results.muted },
    { label: 'hidden', value: results.hidden },
  ]);
  section(
    'Plugins with the most unmuted alerts',
    report.top_plugins.map((p) => ({ label: p.name, value: p.alerts, colour: 'red' as const })),
    'no unmuted alerts',
  );
  section(
    'Groups by unmuted alerts, then missing computers',
    report.groups
      .filter((g) => g.alerts > 0 || g.missing > 0)
      .slice(0, 10)
      .map((g) => ({
        label: g.name ?? g.uid ?? '(no group)',
        value: g.alerts,
        colour: 'red' as const,
        note: g.missing > 0 ? `${g.missing} missing` : undefined,
      })),
    'no group has unmuted alerts or missing computers',
  );
  section(`Expirations`, [
    { label: 'expired', value: expirations.expired, colour: expirations.expired > 0 ? 'red' : undefined },
    {
      label: `expiring within ${expirations.within_days} days`,
      value: expirations.expiring,
      colour: expirations.expiring > 0 ? 'yellow' : undefined,
    },
  ]);
  // One scale for every bar on the screen.
  const max = Math.max(0, ...sections.flatMap(({ lines }) => lines.map((l) => l.value)));
  const shown = sections.map(({ title, lines, empty }) => {
    const head = paint('bold', terminalSafe(title));
    if (lines.length === 0) return `${head}\n  ${empty ?? 'none'}`;
    const labels = lines.map((l) => terminalSafe(l.label));
    const labelWidth = Math.max(...labels.map((label) => [...label].length));
    const numberWidth = Math.max(...lines.map((l) => String(l.value).length));
    const body = lines.map((l, i) => {
      const drawn = bar(l.value, max);
      const note = l.note === undefined ? '' : `${drawn ? ' ' : ''}${terminalSafe(l.note)}`;
      return `  ${labels[i]!.padEnd(labelWidth)}  ${String(l.value).padStart(numberWidth)}  ${paint(l.colour, drawn)}${note}`.trimEnd();
    });
    return `${head}\n${body.join('\n')}`;
  });
  out.write(`${shown.join('\n\n')}\n`);
}
