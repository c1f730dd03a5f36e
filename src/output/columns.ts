import { terminalSafe } from './escape.js';
import type { Column, ValueKind } from './types.js';

/** A column with its defaults filled in. */
export interface ResolvedColumn {
  key: string;
  header: string;
  kind: ValueKind;
  maxWidth: number | undefined;
  value: (row: Record<string, unknown>) => unknown;
}

/** `last_report` -> `LAST REPORT`. A key may come from the server: shown escaped. */
export function defaultHeader(key: string): string {
  return terminalSafe(key.toUpperCase().replaceAll('_', ' '));
}

function resolve(col: Column): ResolvedColumn {
  const { key, get } = col;
  return {
    key,
    header: col.header ?? defaultHeader(key),
    kind: col.kind ?? 'text',
    maxWidth: col.maxWidth,
    value: get ?? ((row) => row[key]),
  };
}

/**
 * The columns to show: `--fields` when given (a known column keeps its kind and header,
 * another key becomes a plain text column), else the resource's default columns.
 */
export function resolveColumns(columns: readonly Column[], fields?: readonly string[]): ResolvedColumn[] {
  if (!fields) return columns.map(resolve);
  return fields.map((key) => resolve(columns.find((c) => c.key === key) ?? { key }));
}

/**
 * A copy of `obj` with only `fields`, in `fields` order; absent keys stay absent (JSON shows
 * the API's objects, so nothing is invented). Without fields, `obj` itself.
 */
export function pickFields(
  obj: Record<string, unknown>,
  fields?: readonly string[],
): Record<string, unknown> {
  if (!fields) return obj;
  const picked: Record<string, unknown> = {};
  for (const key of fields) if (Object.hasOwn(obj, key)) picked[key] = obj[key];
  return picked;
}
