import { terminalSafe } from '../text/escape.js';
import { FIELD_KINDS, hasField, readField } from './forms.js';
import type { Column, Reading, ValueKind } from './types.js';

/** A column with its defaults filled in. */
export interface ResolvedColumn {
  key: string;
  header: string;
  kind: ValueKind;
  maxWidth: number | undefined;
  value: (row: Record<string, unknown>, reading: Reading) => unknown;
}

/** `last_report` -> `LAST REPORT`. A key may come from the server: shown escaped. */
export function defaultHeader(key: string): string {
  return terminalSafe(key.toUpperCase().replaceAll('_', ' '));
}

/** The uid a reference holds: a uid as the API sends it, or an expanded object's uid. */
function refUid(value: unknown): unknown {
  return value && typeof value === 'object' ? (value as Record<string, unknown>).uid : value;
}

/**
 * Columns that mean the same in every view (docs/design/cli-contract.md, "One answer everywhere"): in a
 * table, CSV and TSV `group` is the group's name (an expanded group, or the `{uid, name}` of the
 * fleet commands; a bare uid only when the name is not to be had), `group_uid` its uid. A view
 * that shows a group uses GROUP_COLUMN; `--fields group` or `group_uid` finds them in any view.
 * JSON keeps the API's `group` as sent, and gives `group_uid` only when --fields asks for it.
 */
export const GROUP_COLUMN: Column = {
  key: 'group',
  get: (row) => {
    const group = row.group;
    return group && typeof group === 'object'
      ? ((group as Record<string, unknown>).name ?? (group as Record<string, unknown>).uid)
      : group;
  },
};
export const GROUP_UID_COLUMN: Column = { key: 'group_uid', header: 'GROUP UID', get: (row) => refUid(row.group) };
const SHARED_COLUMNS: readonly Column[] = [GROUP_COLUMN, GROUP_UID_COLUMN];

/** The computed keys a view with these keys also answers to (`group_uid` beside `group`). */
export function sharedKeys(keys: readonly string[]): string[] {
  return keys.includes('group') ? ['group_uid'] : [];
}

function resolve(col: Column): ResolvedColumn {
  const { key, get } = col;
  return {
    key,
    header: col.header ?? defaultHeader(key),
    kind: col.kind ?? 'text',
    maxWidth: col.maxWidth,
    value: get ?? ((row) => readField(row, key)),
  };
}

/**
 * The columns to show: `--fields` when given (a known column keeps its kind and header,
 * another key becomes a column of its field's kind, plain text by default), else the
 * resource's default columns. A value is read under either spelling of its field (forms.ts).
 */
export function resolveColumns(columns: readonly Column[], fields?: readonly string[]): ResolvedColumn[] {
  if (!fields) return columns.map(resolve);
  return fields.map((key) => {
    const kind = FIELD_KINDS[key];
    return resolve(
      columns.find((c) => c.key === key) ??
        SHARED_COLUMNS.find((c) => c.key === key) ??
        (kind ? { key, kind } : { key }),
    );
  });
}

/**
 * A copy of `obj` with only `fields`, in `fields` order. A key the object has keeps the API's
 * value, and a field sent under its other spelling is given under the name asked for
 * (`--fields ard_field_1` reads `ard_field1`); a computed column of the table (a computer's
 * `name` or `flags`, a note's `owner`) gets its value, so a column the table shows is a field
 * in every format; other absent keys stay absent. Without fields, `obj` itself.
 */
export function pickFields(
  obj: Record<string, unknown>,
  fields?: readonly string[],
  columns: readonly Column[] = [],
  reading: Reading = { nowMs: Date.now(), machine: true },
): Record<string, unknown> {
  if (!fields) return obj;
  const picked: Record<string, unknown> = {};
  for (const key of fields) {
    if (hasField(obj, key)) picked[key] = readField(obj, key);
    else {
      const computed = (
        columns.find((column) => column.key === key) ?? SHARED_COLUMNS.find((column) => column.key === key)
      )?.get?.(obj, reading);
      if (computed !== undefined) picked[key] = computed;
    }
  }
  return picked;
}
