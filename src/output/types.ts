/** Output formats accepted by `-o, --output`. */
export type OutputFormat = 'table' | 'json' | 'ndjson' | 'csv' | 'tsv' | 'openmetrics';

/** Every output format, in the order help and error messages list them; openmetrics only where a verb says so. */
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['table', 'json', 'ndjson', 'csv', 'tsv', 'openmetrics'];

/** How a table cell is shown to people. JSON never uses it; csv/tsv only use `time` (ISO 8601 UTC). */
export type ValueKind = 'text' | 'time' | 'bytes' | 'bool' | 'status' | 'percent' | 'list';

/** One column of a resource's table/csv/tsv output. */
export interface Column {
  /** Field name in the API object; also what `--fields` names. */
  key: string;
  /** Table heading. Default: the key upper-cased with `_` turned into spaces (`LAST REPORT`). */
  header?: string;
  /** Default `'text'`. */
  kind?: ValueKind;
  /** Derived value (e.g. flags). Default: `row[key]`. */
  get?: (row: Record<string, unknown>) => unknown;
  /** Truncate with `…` beyond this many characters, on a TTY only. */
  maxWidth?: number;
}

/** Where output goes: process.stdout or a test buffer. */
export interface Sink {
  write(chunk: string): unknown;
}

/** Streams a list: pages are pushed as they arrive. */
export interface ListRenderer {
  push(items: readonly Record<string, unknown>[]): void;
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
  /**
   * With --profiles: this account's share of the output. The renderers hand it the objects
   * instead of writing them, and the fan-out (src/fleet/accounts.ts) renders every account's
   * together, tagged with the profile.
   */
  account?: { list(opts: RenderOptions): ListRenderer };
}
