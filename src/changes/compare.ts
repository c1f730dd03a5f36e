/**
 * What `--changes NAME` compares: each list declares a small set of fields people care about
 * (beside its view, in src/commands), or `--fields` names them. Items are matched by uid; of
 * each, only the uid and the compared values are kept (normalised, so that the same fact in
 * another payload form is not a change), which is also all a saved state holds.
 */
import { keyFingerprint } from '../api/budget.js';
import { parseTime } from '../time/parse.js';
import { FIELD_KINDS, hasField, readField } from '../output/forms.js';
import type { Column, Reading } from '../output/types.js';
import { toJson } from '../text/json.js';

type Item = Record<string, unknown>;

/** A value as saved and compared: JSON, small. */
export type Kept = string | number | boolean | null | Kept[];

/** A field compared between runs: a key of the item, or a value derived from it (declared with a name). */
export type CompareField = string | DerivedField;

export interface DerivedField {
  key: string;
  /** The value from the item as received; `nowSec` for what depends on the time. */
  get(item: Item, nowSec: number): unknown;
}

export const fieldKey = (field: CompareField): string => (typeof field === 'string' ? field : field.key);

/** Text longer than this is kept as a fingerprint: a note's body may be 16 MB (api-v2.5, Limits). */
const LONGEST_KEPT_TEXT = 64;

/** A shown cell longer than this is kept cut (with `…`): it names an item, it is not compared. */
const LONGEST_SHOWN_TEXT = 80;

/**
 * The key of a gone item's last row, as its columns showed it (computer, group, plugin names):
 * what a state keeps beside the compared values, so that a gone row still names what left.
 */
export const LAST_ROW = 'last_row';

const NUMERIC = /^-?\d+(\.\d+)?$/;

/**
 * One value as compared. Times (epoch seconds or ISO 8601: api-v2.5, Computer, last_report) as
 * epoch seconds; the decimal percent (a number or a JSON string) as a number; "true"/"false" as
 * booleans; an expanded reference (`--expand group`, or the group a table expands) as its uid;
 * long text as a fingerprint.
 */
export function normalise(value: unknown, key: string): Kept {
  if (value === undefined || value === null || value === '') return null;
  const kind = FIELD_KINDS[key];
  if (kind === 'time') {
    const ms = parseTime(value);
    if (ms !== undefined) return Math.floor(ms / 1000);
  }
  if (kind === 'percent' && typeof value === 'string' && NUMERIC.test(value.trim())) return Number(value);
  if (value === 'true' || value === 'false') return value === 'true';
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string')
    return value.length > LONGEST_KEPT_TEXT ? `#${keyFingerprint(value)}${value.length}` : value;
  if (Array.isArray(value)) return value.map((one) => normalise(one, key));
  if (typeof value === 'object' && typeof (value as Item).uid === 'string') return (value as Item).uid as string;
  return normalise(toJson(value), key);
}

/**
 * Reads the compared values of items: a derived field by its getter, a key of the API object
 * under either spelling (forms.ts), else a computed column of the table (`--fields name,flags`).
 */
export class Comparison {
  readonly keys: readonly string[];
  /** The columns whose cells a state keeps to show a gone row (every column but the uid). */
  readonly shownKeys: readonly string[];
  /** Computed cells are kept as a machine reads them: the same whatever the time zone of a later run. */
  private readonly reading: Reading;

  constructor(
    private readonly fields: readonly CompareField[],
    private readonly columns: readonly Column[],
    private readonly nowSec: number,
  ) {
    this.keys = fields.map(fieldKey);
    this.reading = { nowMs: nowSec * 1000, machine: true };
    this.shownKeys = columns.map((column) => column.key).filter((key) => key !== 'uid');
  }

  /** The cells of one item's row, in the order of `shownKeys`: text cut short, times as epoch seconds. */
  shown(item: Item): Kept[] {
    return this.columns
      .filter((column) => column.key !== 'uid')
      .map((column) => {
        const value = column.get ? column.get(item, this.reading) : readField(item, column.key);
        if (typeof value === 'string' && value.length > LONGEST_SHOWN_TEXT)
          return `${value.slice(0, LONGEST_SHOWN_TEXT - 1)}…`;
        return normalise(value, column.key);
      });
  }

  /** The compared values of one item, in the order of `keys`. */
  values(item: Item): Kept[] {
    return this.fields.map((field) => {
      const key = fieldKey(field);
      if (typeof field !== 'string') return normalise(field.get(item, this.nowSec), key);
      if (hasField(item, key)) return normalise(readField(item, key), key);
      return normalise(this.columns.find((column) => column.key === key)?.get?.(item, this.reading), key);
    });
  }

  /** The keys whose values differ. */
  differing(before: readonly Kept[], after: readonly Kept[]): string[] {
    return this.keys.filter((_, i) => toJson(before[i] ?? null) !== toJson(after[i] ?? null));
  }

  /**
   * What a gone item shows: its uid, its last known compared values and, when the state kept
   * them, its last row's cells (under LAST_ROW, which the change columns read).
   */
  lastKnown(uid: string, values: readonly Kept[], row?: { keys: readonly string[]; cells: readonly Kept[] }): Item {
    const item: Item = Object.fromEntries([['uid', uid], ...this.keys.map((key, i) => [key, values[i] ?? null])]);
    if (row) item[LAST_ROW] = Object.fromEntries(row.keys.map((key, i) => [key, row.cells[i] ?? null]));
    return item;
  }
}

/** One line of the answer of `--changes`. */
export interface Difference {
  change: 'new' | 'gone' | 'changed';
  /** As the API sent it (for a gone item: the uid and its last known values). */
  item: Item;
  /** For `changed`: the compared fields that differ. */
  changed?: string[];
}

/**
 * The stage between the pages and the output: takes items as they stream, keeps the compared values of each and whole only those that differ from the state before,
 * and, once the list is whole, names what is gone.
 */
export class ChangeCollector {
  /** What this run saw: uid -> compared values (the next state). */
  readonly seen = new Map<string, Kept[]>();
  /** What this run's rows showed: uid -> cells in the order of the comparison's shownKeys (kept in the next state). */
  readonly rows = new Map<string, Kept[]>();
  private readonly differences: Difference[] = [];

  constructor(
    private readonly comparison: Comparison,
    private readonly before: ReadonlyMap<string, readonly Kept[]> | undefined,
    /** The rows the state before kept, when it kept them (states saved before rows were kept have none). */
    private readonly rowsBefore?: { keys: readonly string[]; rows: ReadonlyMap<string, readonly Kept[]> },
  ) {}

  push(items: readonly Item[]): void {
    for (const item of items) {
      const uid = item.uid;
      if (typeof uid !== 'string' || uid === '') throw new MissingUid();
      const values = this.comparison.values(item);
      this.seen.set(uid, values);
      this.rows.set(uid, this.comparison.shown(item));
      if (!this.before) continue;
      const previous = this.before.get(uid);
      if (!previous) this.differences.push({ change: 'new', item });
      else {
        const changed = this.comparison.differing(previous, values);
        if (changed.length) this.differences.push({ change: 'changed', item, changed });
      }
    }
  }

  /** New and changed items in the order listed, then gone ones in the order of the state before. */
  result(): Difference[] {
    const gone: Difference[] = [];
    for (const [uid, values] of this.before ?? []) {
      if (this.seen.has(uid)) continue;
      const cells = this.rowsBefore?.rows.get(uid);
      gone.push({
        change: 'gone',
        item: this.comparison.lastKnown(uid, values, cells && { keys: this.rowsBefore!.keys, cells }),
      });
    }
    // An item listed twice (pages shifted while they were read) counts once.
    const listed = new Map(this.differences.map((difference) => [difference.item.uid, difference]));
    return [...listed.values(), ...gone];
  }
}

/** An item without a uid cannot be matched between runs. */
export class MissingUid extends Error {
  constructor() {
    super('an item of the list has no uid, and --changes matches items by uid');
  }
}

/** A difference as printed: the item with a top-level `change` key (and `changed`, naming the fields). */
export function shown(difference: Difference): Item {
  return {
    change: difference.change,
    ...(difference.changed ? { changed: difference.changed } : {}),
    ...difference.item,
  };
}

/**
 * The columns of the answer: CHANGE and CHANGED first, the uid (what matches) when the view has
 * none; a gone row's cells are those its last row showed, where the state kept them.
 */
export function changeColumns(columns: readonly Column[]): Column[] {
  const asLastShown = (column: Column): Column => ({
    ...column,
    get: (row, reading) => {
      const last = row[LAST_ROW] as Item | undefined;
      if (last && column.key in last) return last[column.key];
      return column.get ? column.get(row, reading) : readField(row, column.key);
    },
  });
  return [
    { key: 'change' },
    { key: 'changed', kind: 'list' },
    ...(columns.some((column) => column.key === 'uid') ? [] : [{ key: 'uid' }]),
    ...columns.map(asLastShown),
  ];
}

/** `--fields` under --changes: change and changed come first, whatever else is asked for. */
export function changeFields(fields: readonly string[] | undefined): string[] | undefined {
  return fields && ['change', 'changed', ...fields.filter((field) => field !== 'change' && field !== 'changed')];
}
