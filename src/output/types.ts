/** Output formats accepted by `-o, --output`. */
export type OutputFormat = 'table' | 'json' | 'ndjson' | 'csv' | 'tsv' | 'openmetrics';

/** Every output format, in the order help and error messages list them; openmetrics only where a verb says so. */
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['table', 'json', 'ndjson', 'csv', 'tsv', 'openmetrics'];

/** What each format prints: `mon help formats`, docs/help/formats.md and the man page show it. */
export const FORMAT_DESCRIPTIONS: Readonly<Record<OutputFormat, string>> = {
  table:
    'the default, for people: readable dates (relative on a terminal, YYYY-MM-DD HH:MM local time in a pipe), sizes, yes/no, names instead of uids, colour only on a terminal; columns aligned by display width (CJK and emoji two columns), long cells cut with … on a terminal. It needs every row, so with --all it prints once the last page is in (progress on stderr meanwhile, on a terminal). An empty list prints nothing on stdout and "No results." on stderr',
  json: "the API's objects exactly as received: one object, or one JSON array for a list (also with --all, streamed a page at a time)",
  ndjson: 'one object per line, printed as pages arrive: the format for --all in scripts',
  csv: 'RFC 4180 quoting, the field keys as the header, machine values (ISO 8601 UTC times, true/false)',
  tsv: 'as csv, with tabs; tabs and newlines inside values become spaces',
  openmetrics:
    '`mon status` only: its figures in the OpenMetrics text format for Prometheus (the node_exporter textfile collector): mon_computers{account,group,platform}, mon_computers_missing{account,group}, mon_computers_hidden{account,group}, mon_plugin_results{account,group,status,muted}, mon_expirations{account,window} (window expired, 30d or 90d), mon_up{account} and mon_read_duration_seconds{account}; across accounts an account that failed has mon_up 0 and no other sample but mon_last_success_timestamp_seconds from mon history',
};

/** How a table cell is shown to people. JSON never uses it; csv/tsv only use `time` (ISO 8601 UTC). */
export type ValueKind = 'text' | 'time' | 'bytes' | 'bool' | 'status' | 'percent' | 'list';

/**
 * What a derived column may depend on besides its row: the clock (a timed mute that has ended is
 * no mute), and who reads it: a machine (csv, tsv, JSON: times in ISO 8601 UTC) or a person (a
 * table: local time).
 */
export interface Reading {
  nowMs: number;
  machine: boolean;
}

/** One column of a resource's table/csv/tsv output. */
export interface Column {
  /** Field name in the API object; also what `--fields` names. */
  key: string;
  /** Table heading. Default: the key upper-cased with `_` turned into spaces (`LAST REPORT`). */
  header?: string;
  /** Default `'text'`. */
  kind?: ValueKind;
  /** Derived value (e.g. flags). Default: `row[key]`. */
  get?: (row: Record<string, unknown>, reading: Reading) => unknown;
  /** Truncate with `…` beyond this many characters, on a TTY only. */
  maxWidth?: number;
}

/** Where output goes: process.stdout or a test buffer. */
export interface Sink {
  write(chunk: string): unknown;
}

/**
 * A key put first in every item of a page, with the same value, as `{ [key]: value, ...item }`
 * puts it (a key of the item's own keeps the item's value): the account's `profile` of a read
 * across accounts.
 */
export interface FirstKey {
  key: string;
  value: string;
}

/** Streams a list: pages are pushed as they arrive. */
export interface ListRenderer {
  push(items: readonly Record<string, unknown>[], firstKey?: FirstKey): void;
  end(): void;
}

/** Everything a renderer needs; the caller resolves flags, environment and TTY state. */
export interface RenderOptions {
  format: OutputFormat;
  /** Default columns of the resource (table/csv/tsv). */
  columns: Column[];
  /**
   * `--fields`: replaces `columns` (a known column keeps its kind/header; another key is a
   * plain text column) and, in json/ndjson, keeps only these keys of each object, in this order.
   */
  fields?: string[];
  /** json without indentation: with --jq, only the filter reads it (the same JSON, less to parse). */
  compact?: boolean;
  /** False with `--no-header` (table/csv/tsv). */
  header: boolean;
  /** Colour allowed (decided by the caller from TTY, NO_COLOR, FORCE_COLOR and --no-color). */
  color: boolean;
  /** stdout is a terminal: relative times and truncation allowed. */
  tty: boolean;
  /** Clock in milliseconds, for relative times. */
  now: () => number;
  out: Sink;
}

/** How an answer printed as received (Output.raw, `mon api`) is printed. */
export interface RawOptions {
  format: 'json' | 'ndjson';
  /** --fields: the keys kept of each object. */
  fields: string[] | undefined;
  /** One line (for --jq's filter) rather than indented. */
  compact: boolean;
  out: Sink;
  now: () => number;
}
