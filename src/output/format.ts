/**
 * Pure value formatters. Tables humanise values for people; csv/tsv keep them plain for
 * machines. Nothing here loads chalk: colour comes in through a {@link Palette}.
 */
import { NUMERIC, parseTime } from '../time/parse.js';
import { terminalSafe } from '../text/escape.js';
import type { ValueKind } from './types.js';
import { toJson } from '../text/json.js';

/** Colouring hooks, built from chalk by the table renderer only when colour is on. */
export interface Palette {
  /** Table headings and key labels. */
  header(text: string): string;
  /** A status value (`OK`, `Warning`, `Alert`, `Informational`, `missing`…); `text` is what is shown. */
  status(value: string, text: string): string;
}

/** Options for {@link formatTime}. */
export interface TimeOptions {
  /** Relative times ("3 min ago") on a terminal, `YYYY-MM-DD HH:MM` local time otherwise. */
  tty: boolean;
  /** Clock in milliseconds. */
  now: () => number;
}

/** Options for {@link formatCell}. */
export interface CellOptions extends TimeOptions {
  /** Cut with `…` beyond this many terminal columns (TTY only), by `cut`. */
  maxWidth?: number;
  /** Cuts text to a width in terminal columns: the table kit's (width.ts), loaded with the table. */
  cut?: (text: string, width: number) => string;
  /** Colour hooks; absent means no escape codes at all. */
  palette?: Palette;
}

/** ISO 8601 in UTC without milliseconds when they are zero: `2026-11-20T14:03:00Z`. */
export function toIsoUtc(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

function relative(ms: number, now: number): string {
  const diff = Math.round((now - ms) / 1000);
  const secs = Math.abs(diff);
  if (secs < 60) return diff >= 0 ? 'just now' : 'in under a minute';
  const mins = Math.floor(secs / 60);
  const hours = Math.floor(mins / 60);
  const days = Math.floor(hours / 24);
  const plural = (n: number, unit: string): string => `${n} ${unit}${n === 1 ? '' : 's'}`;
  const span =
    mins < 60
      ? `${mins} min`
      : hours < 24
        ? plural(hours, 'hour')
        : days < 30
          ? plural(days, 'day')
          : days < 365
            ? plural(Math.floor(days / 30), 'month')
            : plural(Math.floor(days / 365), 'year');
  return diff >= 0 ? `${span} ago` : `in ${span}`;
}

/**
 * A time for people: relative on a TTY ("3 min ago", "in 2 days"), else `YYYY-MM-DD HH:MM`
 * in the local time zone (stable for pipes, still readable). Unparseable values are shown as
 * they came; null/undefined give ''.
 */
export function formatTime(value: unknown, opts: TimeOptions): string {
  if (value === null || value === undefined || value === '') return '';
  const ms = parseTime(value);
  if (ms === undefined) return String(value);
  return opts.tty ? relative(ms, opts.now()) : localMinute(ms);
}

/** `YYYY-MM-DD HH:MM` in the local time zone. */
export function localMinute(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

/**
 * A byte count for people, 1024-based with IEC labels (`1.5 GiB`): the numbers match `df -h`
 * and `du -h`, installed RAM comes out round (16 GiB), and the label says which base is meant.
 * Accepts numbers and numeric strings (ram_installed_in_bytes is a string: api-v2.5, Computer).
 */
export function formatBytes(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const n = typeof value === 'string' && NUMERIC.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) return String(value);
  // Whole bytes, one decimal above; step up when rounding reaches 1024 ("1 MiB", not "1024 KiB").
  const shown = (v: number, u: number): number => (u === 0 ? Math.round(v) : Number(v.toFixed(1)));
  let size = Math.abs(n);
  let unit = 0;
  while (unit < BYTE_UNITS.length - 1 && shown(size, unit) >= 1024) {
    size /= 1024;
    unit += 1;
  }
  return `${n < 0 ? '-' : ''}${shown(size, unit)} ${BYTE_UNITS[unit]}`;
}

/** `yes`/`no` for booleans (and their string forms); anything else as it came. */
export function formatBool(value: unknown): string {
  if (value === true || value === 'true') return 'yes';
  if (value === false || value === 'false') return 'no';
  if (value === null || value === undefined) return '';
  return String(value);
}

/** `42%`, `97.5%`: one decimal at most. Accepts numbers and numeric strings. */
export function formatPercent(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const n = typeof value === 'string' && NUMERIC.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n)) return String(value);
  return `${Number(n.toFixed(1))}%`;
}

/** Text of a value with no kind: '' for null, compact JSON for objects. */
function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return toJson(value);
  return String(value);
}

/**
 * One table cell, formatted for people according to its kind. Null/undefined give '' in
 * every kind. Multi-line text keeps the first line on a TTY (followed by `…`), and is folded
 * onto one line elsewhere, so a row is always one line and nothing is lost in a pipe.
 */
export function formatCell(value: unknown, kind: ValueKind, opts: CellOptions): string {
  let s: string;
  switch (kind) {
    case 'time':
      s = formatTime(value, opts);
      break;
    case 'bytes':
      s = formatBytes(value);
      break;
    case 'bool':
      s = formatBool(value);
      break;
    case 'percent':
      s = formatPercent(value);
      break;
    case 'list':
    case 'text':
    case 'status':
      s = Array.isArray(value) ? value.map(text).join(', ') : text(value);
      break;
  }
  if (/[\r\n]/.test(s)) {
    s = opts.tty ? `${s.trim().split(/\r?\n|\r/)[0] ?? ''}…` : s.replace(/\s*[\r\n]+\s*/g, ' ');
  }
  // Before colour is added: what the server sent is shown, never acted on by the terminal.
  s = terminalSafe(s);
  if (opts.tty && opts.maxWidth !== undefined) {
    if (!opts.cut) throw new Error('formatCell: maxWidth needs cut');
    s = opts.cut(s, opts.maxWidth);
  }
  if (kind === 'status' && opts.palette && s !== '') s = opts.palette.status(text(value), s);
  return s;
}

/**
 * A value in plain machine form, for csv/tsv: times as ISO 8601 UTC, booleans true/false,
 * null/undefined as '', arrays joined with ';', objects as compact JSON, the rest as is.
 */
export function plainValue(value: unknown, kind: ValueKind = 'text'): string {
  if (value === null || value === undefined) return '';
  if (kind === 'time') {
    const ms = parseTime(value);
    if (ms !== undefined) return toIsoUtc(ms);
  }
  // a decimal comes as a number or as a JSON string ("30.0"): the same digits either way
  if (kind === 'percent' && typeof value === 'string' && NUMERIC.test(value.trim())) return String(Number(value));
  if (Array.isArray(value)) return value.map((v) => plainValue(v)).join(';');
  return text(value);
}

/**
 * One CSV record (no line ending) with RFC 4180 quoting: a field holding a comma, a quote,
 * CR or LF is quoted and its quotes doubled. Values go through {@link plainValue}; other
 * control characters are shown escaped (see src/text/escape.ts).
 */
export function toCsvRow(values: readonly unknown[]): string {
  return values
    .map((v) => {
      const s = terminalSafe(plainValue(v), '\r\n\t');
      return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
    })
    .join(',');
}

/**
 * One TSV record (no line ending). TSV has no quoting, so tabs, CR and LF inside a value
 * become single spaces: every record stays one line with a fixed number of fields. Other
 * control characters are shown escaped (see src/text/escape.ts).
 */
export function toTsvRow(values: readonly unknown[]): string {
  return values.map((v) => terminalSafe(plainValue(v).replace(/\r\n|[\t\r\n]/g, ' '))).join('\t');
}
