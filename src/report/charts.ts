/** The report's charts, as inline SVG: bars, columns and a line day by day. */
import { dayLabel } from './dates.js';
import { e } from './markup.js';

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
